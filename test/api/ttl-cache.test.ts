import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ttlCache } from "../../shared/ttl-cache";

describe("ttlCache", () => {
  beforeEach(() => vi.useFakeTimers({ now: Date.parse("2026-11-24T00:00:00Z") }));
  afterEach(() => vi.useRealTimers());

  it("answers a value while it is fresh and nothing once its time to live has passed", () => {
    const cache = ttlCache<string | null>(5_000);
    cache.set("a", "x");
    cache.set("gone", null); // a remembered absence is a value too
    vi.advanceTimersByTime(4_999);
    expect(cache.get("a")).toBe("x");
    expect(cache.get("gone")).toBeNull();
    vi.advanceTimersByTime(1);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("gone")).toBeUndefined();
  });

  it("keeps a value until the instant it is given, and forgets a deleted one", () => {
    const cache = ttlCache<number>(5_000);
    cache.set("token", 1, Date.now() + 60_000);
    cache.set("other", 2);
    vi.advanceTimersByTime(59_999);
    expect(cache.get("token")).toBe(1);
    cache.delete("token");
    expect(cache.get("token")).toBeUndefined();
  });

  it("starts over when full, so it never holds more than its bound", () => {
    const cache = ttlCache<number>(5_000, 3);
    for (const [i, key] of ["a", "b", "c"].entries()) cache.set(key, i);
    expect(cache.get("a")).toBe(0);
    cache.set("d", 3);
    expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.get("d")]).toEqual([undefined, undefined, undefined, 3]);
  });
});
