/**
 * A scan pass (issued and checked by worker/scans/pass.ts): a header a scan's browser adds to its requests to the
 * Assent service, below the page, so the service knows the visitor is the project's own scanner. Page scripts never
 * see it. The CLI, the scanner's Worker and the API speak it alike.
 */
export const scanPassHeader = "Assent-Scan-Pass" as const;

export type ScanPass = { service: string; header: string; value: string };
