// SCAN_TRACE=1: each visit's steps on stderr, as milliseconds since the process started, to see where a scan waits
// (docs/scanner.md#where-a-scan-waits). Off by default; the Worker has no such variable.
const on = Boolean((globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.SCAN_TRACE);

/** Logs `step` of the visit of `url` as `phase`, when tracing is on. */
export function traceStep(url: string, phase: string, step: string): void {
  if (on) console.error(`[scan] ${Math.round(performance.now())} ${new URL(url).pathname} ${phase} ${step}`);
}
