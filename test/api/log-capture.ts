import { vi } from "vitest";

// Everything the Worker logs, as the platform would receive it. The Worker runs in the test's isolate (the fetch
// handler through `exports.default`, the queue consumer, the cron), so spying on `console` sees every line.

const methods = ["log", "info", "warn", "error", "debug"] as const;

/** One console call: its method and its arguments as JSON (objects stay whole, errors keep their own fields). */
export type CapturedLine = { method: (typeof methods)[number]; text: string; values: unknown[] };

const asText = (value: unknown) =>
  value instanceof Error ? JSON.stringify({ name: value.name, message: value.message, stack: value.stack }) : typeof value === "string" ? value : JSON.stringify(value);

/** Every line logged in this test file so far (test/api/setup.ts starts the capture before the file's tests). */
export const captured: CapturedLine[] = [];

/**
 * The console as it was before any capture: this module stays loaded from one test file to the next (the api files
 * share their workerd), so each file's capture wraps these rather than the previous file's spies.
 */
const originals = Object.fromEntries(methods.map((method) => [method, console[method].bind(console)]));

/**
 * Records every console call from now on, forgetting the previous file's lines. Request lines are only recorded (a
 * suite's thousands of them would bury its report); every other line is printed too.
 */
export function startCapture() {
  captured.length = 0;
  for (const method of methods) {
    const original = originals[method]!;
    vi.spyOn(console, method).mockImplementation((...values: unknown[]) => {
      captured.push({ method, text: values.map(asText).join(" "), values });
      if (!isEvent(values, "request")) original(...values);
    });
  }
}

const isEvent = (values: unknown[], event: string) => values.length === 1 && (values[0] as { event?: unknown } | null)?.event === event;

/** The lines logged from here on, and the structured ones among them with a given `event`. */
export function logsFromNow() {
  const from = captured.length;
  const lines = () => captured.slice(from);
  return { lines, events: (event: string) => lines().flatMap(({ values }) => (isEvent(values, event) ? [values[0] as Record<string, unknown>] : [])) };
}

/**
 * Shapes of personal data that no log line may carry, whatever the test: e-mail addresses, IP addresses, phone
 * numbers in international form, identity ids.
 */
const personalDataShapes: [what: string, shape: RegExp][] = [
  ["e-mail address", /[\w.%+-]+@[\w-]+(\.[\w-]+)+/],
  ["IPv4 address", /\b(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)\b/],
  ["IPv6 address", /\b[0-9a-f]{1,4}(?::[0-9a-f]{0,4}){2,7}::?[0-9a-f]{1,4}\b/i],
  ["phone number", /\+\d[\d ()-]{6,}\d/],
  ["identity id", /\bidn_[0-9A-Z]{26}\b/],
];

/** Each line naming one of `planted` (values a test put in its fixtures) or having the shape of personal data. */
export function personalDataIn(lines: readonly CapturedLine[], planted: readonly string[] = []): string[] {
  return lines.flatMap(({ text }) => {
    const found = [
      ...planted.filter((value) => text.includes(value)).map((value) => `fixture value ${value}`),
      ...personalDataShapes.filter(([, shape]) => shape.test(text)).map(([what]) => what),
    ];
    return found.length > 0 ? [`${found.join(", ")} in: ${text.slice(0, 500)}`] : [];
  });
}
