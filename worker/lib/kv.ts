import { logger } from "./logger";

/**
 * Every kind of key the Worker writes to KV, and what its values hold (docs/operations-data.md#kv-key-prefixes).
 * KV has no data location: a namespace is replicated to every Cloudflare location, so it holds no personal data,
 * which the type below makes a rule (`personalData: false` is the only value it allows). Personal data lives in D1,
 * which can be created in the EU. test/api/kv-prefixes.test.ts lists the keys the test suites write and fails on
 * a prefix that is not here.
 */
export const kvPrefixes = {
  "client:v2:": {
    holds:
      "A client's record for token checks (read-through cache of the clients table, 1 h): project id, client type, a " +
      "16-character prefix of its secret's hash, allowed origins, scopes. Keyed by client id.",
    personalData: false,
  },
  "erasure-salt:": {
    holds: "A project's random salt for the erasure ledger's hashes. Keyed by project id.",
    personalData: false,
  },
  "erasure:": {
    holds:
      "One erased identity: the salted SHA-256 of its random id (in the key) and when it was erased. Kept outside D1 " +
      "so that an erasure survives a database restore (docs/proof.md); the hash names no person and no alias.",
    personalData: false,
  },
} as const satisfies Record<string, { holds: string; personalData: false }>;

export type KvPrefix = keyof typeof kvPrefixes;

/** A key of the kind `prefix` names. */
export const kvKey = (prefix: KvPrefix, rest: string) => `${prefix}${rest}`;

/** The classified prefix a key starts with, if any. */
export const prefixOf = (key: string): KvPrefix | undefined => (Object.keys(kvPrefixes) as KvPrefix[]).find((prefix) => key.startsWith(prefix));

/**
 * A KV call failed (an outage, a limit): one warning line naming the operation and the kind of key, never the key
 * itself (it may name a client or project; the line needs neither to be acted on).
 */
export const kvFailed = (operation: "get" | "put" | "delete" | "list", prefix: KvPrefix, error: unknown) =>
  logger.warn("kv_unavailable", { binding: "KV", operation, keyPrefix: prefix }, error);
