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
