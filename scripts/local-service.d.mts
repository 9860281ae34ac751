// Types of local-service.mjs, for the browser tests' global setup.
export const wranglerEnv: NodeJS.ProcessEnv;
export function freePort(): Promise<number>;
export function lastingPort(): Promise<number>;
export function newSigningKeys(kid: string): Promise<string>;
export function newSecretKey(): string;
export function buildClient(): Promise<void>;
export const migratedStateVariable: string;
export function applyMigrations(stateDir: string, options?: { config?: string }): Promise<void>;
export function migrateState(stateDir: string, options?: { config?: string }): Promise<void>;
export function freshState(options?: { prefix?: string; config?: string }): Promise<string>;
export function removeState(stateDir: string): void;
export function waitForHealth(baseUrl: string, options?: { timeoutMs?: number; gaveUp?: () => boolean }): Promise<boolean>;
export type Runtime = "wrangler" | "lean";
export const runtimes: Record<Runtime, (options: string[]) => [command: string, args: string[]]>;
export type LocalService = {
  runtime: Runtime;
  baseUrl: string;
  adminToken: string;
  signingKeys: string;
  pid: number;
  stop: () => Promise<void>;
  log: () => string;
};
export function startService(options: {
  name?: string;
  stateDir?: string;
  build?: boolean;
  config?: string;
  runtime?: Runtime;
  adminToken?: string;
  signingKeys?: string;
  issuer?: string;
  vars?: Record<string, string>;
  options?: string[];
  inspector?: boolean;
  port?: number;
}): Promise<LocalService>;

/** Writes `file`, a copy of wrangler.toml with the rate limiters `names` matches raised to `limit`; returns their binding names. */
export function writeRaisedLimitsConfig(file: string, options?: { names?: RegExp; limit?: number; edit?: (text: string) => string }): string[];
