import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { oneAtATime } from "../../worker/requests/write-guard";

/**
 * The queue of one identity's writes within an isolate (worker/requests/write-guard.ts), on a fake clock: each write
 * stands for one taking `ms` of the isolate's time, and records when it ran.
 */
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

type Span = { name: string; start: number; end?: number };

function writer(identityId: string) {
  const spans: Span[] = [];
  const write = (name: string, ms: number | "never") =>
    oneAtATime("prj_queue", identityId, async () => {
      const span: Span = { name, start: Date.now() };
      spans.push(span);
      await new Promise<void>((resolve) => (ms === "never" ? undefined : setTimeout(resolve, ms)));
      span.end = Date.now();
    });
  return { spans, write };
}

it("runs a burst of writes one after another, however long the queue takes to drain", async () => {
  const { spans, write } = writer("idn_burst");
  const t0 = Date.now();
  const all = Promise.all(["a", "b", "c", "d"].map((name) => write(name, 1_500)));
  await vi.advanceTimersByTimeAsync(10_000);
  await all;
  expect(spans.map(({ name, start, end }) => [name, start - t0, end! - t0])).toEqual([
    ["a", 0, 1_500],
    ["b", 1_500, 3_000],
    ["c", 3_000, 4_500],
    ["d", 4_500, 6_000],
  ]);
});

it("stops waiting for a write that has run 2 s without settling, and the next ones queue behind the one that went ahead", async () => {
  const { spans, write } = writer("idn_stuck");
  const t0 = Date.now();
  void write("stuck", "never");
  const rest = Promise.all([write("b", 1_000), write("c", 1_000)]);
  await vi.advanceTimersByTimeAsync(10_000);
  await rest;
  expect(spans.map(({ name, start, end }) => [name, start - t0, end === undefined ? null : end - t0])).toEqual([
    ["stuck", 0, null],
    ["b", 2_000, 3_000],
    ["c", 3_000, 4_000],
  ]);
});
