// Types of scan-fixture.mjs, for the scanner's tests.
export type Fixture = { origin: string; close(): Promise<void> };
export function startScanFixture(options?: {
  assent?: { base: string; projectId: string } | null;
  extraPages?: number;
}): Promise<Fixture & { at(host: string): string }>;
export function startHostileFixture(): Promise<Fixture>;
