import type { ClientType } from "./auth/table";

/** Bindings, typed once (wrangler types needs Node 22, so this is written by hand; keep it in step with wrangler.toml). */
export interface Env {
  DB: D1Database;
  /** Read-through cache of client records used by token checks; D1 stays the source of truth. */
  KV: KVNamespace;
  /** Bearer token of the admin API (a secret in production, `.dev.vars` locally). */
  ADMIN_TOKEN: string;
  /** JSON array of private ES256 JWKs, each with a `kid`; the first signs, all verify (rotation). */
  SIGNING_KEYS: string;
  /** Token issuer; defaults to the origin the request came to. */
  ISSUER?: string;
  /** Access-token lifetime in seconds (default 3600). */
  TOKEN_TTL_SECONDS?: string;
  /** Webhook deliveries; this Worker is also the queue's consumer. */
  WEBHOOK_QUEUE: Queue<{ deliveryId: string }>;
  /** Secret from which the key encrypting webhook secrets at rest is derived (HKDF, AES-GCM). */
  WEBHOOK_SECRETS_KEY: string;
  /** Attempts per webhook delivery before it is dead (default 8; at most the queue's max_retries + 1). */
  WEBHOOK_MAX_ATTEMPTS?: string;
  /** First retry delay in seconds; each further retry waits 4 times longer, capped at 12 h (default 30). */
  WEBHOOK_RETRY_BASE_SECONDS?: string;
  /** How long a webhook endpoint may take to answer, in milliseconds (default 10000). */
  WEBHOOK_TIMEOUT_MS?: string;
  /** "true" lets webhooks target loopback addresses over http (local development only; `npm start` sets it). */
  ALLOW_LOOPBACK_WEBHOOKS?: string;
  /** Upstream SMS gateway of the sms_hub provider (POST, JSON). Unset: messages stay in the outbox (`outbox_only`). */
  SMS_HUB_UPSTREAM_URL?: string;
  /** Bearer secret sent to the upstream SMS gateway (a secret, set with `wrangler secret put`). */
  SMS_HUB_UPSTREAM_SECRET?: string;
  /** Workers Static Assets (dist/public): the client bundles; the portal's shell is fetched through it. */
  ASSETS: Fetcher;
  /** "off" stops signing receipts (README "Proof of consent"); any other value or unset: every write is signed. */
  RECEIPTS?: string;
  /** Portal session lifetime in seconds (default 3600, at least 60). */
  PORTAL_SESSION_TTL_SECONDS?: string;
}

/** Who is calling, derived from a verified access token. */
export type Caller = {
  projectId: string;
  clientId: string;
  clientType: ClientType;
  /** Present on browser tokens scoped to one data subject. */
  identityId?: string;
};

export type AppEnv = { Bindings: Env; Variables: { caller: Caller } };
