// Types of scan-fixture.mjs, for the scanner's tests.
export type Fixture = { origin: string; close(): Promise<void> };
export function startScanFixture(options?: { extraPages?: number }): Promise<
  Fixture & { at(host: string): string; useAssent(service: { base: string; projectId: string }): void; loads(path: string): number }
>;
export function startHostileFixture(): Promise<Fixture>;
export function startSiteFixture(): Promise<Fixture & { at(host: string): string; hosts: string[] }>;
