import type { Operator } from "./auth/operators";
import type { ClientType, Scope } from "./auth/scopes";
import type { CronMessage } from "./cron/runs";
import type { ScannerService } from "../shared/scans/scanner";

/**
 * The Worker's bindings. What wrangler.toml declares is generated from it (`WranglerBindings` in
 * worker-configuration.d.ts: `npm run generate:types`, which `npm run lint` checks is current); below is what a
 * configuration file cannot declare: the secrets, the settings an operator may leave unset (commented out in
 * wrangler.toml) or that only local development and the tests pass, the bindings wrangler.toml leaves out, and the
 * queues' message types.
 */
export interface Env extends WranglerBindings {
  /**
   * JSON object, project id → name of a further D1 binding (`DB_SHARD_1`, …) holding that project
   * (docs/operations.md#more-than-one-database-project-to-database-map). Unset or `{}`: everything in DB. The bindings it names are declared in wrangler.toml.
   */
  PROJECT_DATABASES?: string;
  /** Bearer token of the admin API (a secret in production, `.dev.vars` locally). */
  ADMIN_TOKEN: string;
  /** The admin token being rotated out: accepted beside ADMIN_TOKEN until removed (docs/operations.md#rotating-secrets). */
  ADMIN_TOKEN_PREVIOUS?: string;
  /** JSON array of private ES256 JWKs, each with a `kid`; the first signs, all verify (rotation). */
  SIGNING_KEYS: string;
  /** Token issuer (`iss`), e.g. https://assent.example.com. Required: never taken from the Host header. */
  ISSUER?: string;
  /** Access-token lifetime in seconds (default 3600). */
  TOKEN_TTL_SECONDS?: string;
  /** Webhook deliveries; this Worker is also the queue's consumer. */
  WEBHOOK_QUEUE: Queue<{ deliveryId: string }>;
  /** The cron's runs, one message per job and database (worker/cron/runs.ts); this Worker is also the consumer. */
  CRON_QUEUE: Queue<CronMessage>;
  /** Secret from which the key encrypting webhook secrets at rest is derived (HKDF, AES-GCM). */
  WEBHOOK_SECRETS_KEY: string;
  /**
   * The webhook secrets key being rotated out: secrets still under it are read with it, and the cron re-encrypts them
   * under WEBHOOK_SECRETS_KEY (docs/operations.md#rotating-secrets).
   */
  WEBHOOK_SECRETS_KEY_PREVIOUS?: string;
  /** "true" lets webhooks target loopback addresses over http (local development only; `npm start` sets it). */
  ALLOW_LOOPBACK_WEBHOOKS?: string;
  /** "true" lets a single sign-on issuer be a loopback address over http (local development and tests only). */
  ALLOW_LOOPBACK_SSO?: string;
  /** Upstream SMS gateway of the sms_hub provider (POST, JSON). Unset: messages stay in the outbox (`outbox_only`). */
  SMS_HUB_UPSTREAM_URL?: string;
  /** Bearer secret sent to the upstream SMS gateway (a secret, set with `wrangler secret put`). */
  SMS_HUB_UPSTREAM_SECRET?: string;
  /**
   * "true" only in local development (`npm start`, the browser tests): the bootstrap then honours a forced
   * regime (`regime` in its body, or the `X-Assent-Regime` header), since `request.cf` is a fixed location there.
   */
  LOCAL_DEV?: string;
  /** Tests only: a JSON list of extra browser signals (shared/signals/signals.ts), to show a signal is data. */
  TEST_SIGNALS?: string;
  /** "off" stops signing receipts (docs/proof.md#cost); any other value or unset: every write is signed. */
  RECEIPTS?: string;
  /** Portal session lifetime in seconds (default 3600, at least 60). */
  PORTAL_SESSION_TTL_SECONDS?: string;
  /** Privacy requests one privacy-center session may file (worker/privacy-center; unset: the default there). */
  PRIVACY_CENTER_REQUESTS_PER_SESSION?: string;
  /**
   * Cloudflare Turnstile (worker/limits/turnstile.ts): the challenge an address under attack needs. The site key is
   * public (the page renders the widget with it), the secret key a secret; TURNSTILE_VERIFY_URL replaces siteverify's
   * address (tests: a local stand-in). Unset keys: an address under attack answers 429 instead.
   */
  TURNSTILE_SITE_KEY?: string;
  TURNSTILE_SECRET_KEY?: string;
  TURNSTILE_VERIFY_URL?: string;
  /** SMS routes (JSON, not secret): route name → adapter, baseUrl, fallback, validityHours, failoverAfter, options. */
  SMS_ROUTES?: string;
  /** Secret (JSON): route name → that provider's credentials. Never in D1 or wrangler.toml. */
  SMS_CREDENTIALS?: string;
  /** Public origin providers send delivery reports to (default: ISSUER). Unset with ISSUER: no delivery reports. */
  SMS_CALLBACK_BASE_URL?: string;
  /** Cloudflare's `send_email` binding: the privacy center's codes go out through Email Routing (worker/email/outbox.ts). */
  SEND_EMAIL?: SendEmail;
  /** An HTTP email API (POST JSON `{from, to, subject, text}`, bearer `EMAIL_API_KEY`), when there is no `SEND_EMAIL`. */
  EMAIL_API_URL?: string;
  /** Bearer key of EMAIL_API_URL (a secret). */
  EMAIL_API_KEY?: string;
  /** The sender of the service's email (default privacy@assent.invalid). */
  EMAIL_FROM?: string;
  /**
   * The scanner's Worker (wrangler.toml `[[services]]`, scanner/worker): the service's own site scans, in Browser
   * Rendering (worker/scans). Unset, as locally, remote scans answer 503 `browser_unavailable` and the schedule
   * queues nothing; `npm run scan` remains.
   */
  SCANNER?: Fetcher & ScannerService;
  /** Operator's billing system: GET <url>/<billing_account>; unset, the D1 table is the source. */
  BILLING_UPSTREAM_URL?: string;
  /** Bearer secret sent to BILLING_UPSTREAM_URL (a secret). */
  BILLING_UPSTREAM_SECRET?: string;
  /** How long the billing upstream may take to answer, in milliseconds (default 5000); then 504. */
  BILLING_UPSTREAM_TIMEOUT_MS?: string;
  /**
   * The operator's webhook (docs/operations-alerts.md): the cron posts `ops.alert` events here, signed with
   * OPS_WEBHOOK_SECRET (a `whsec_…` Standard Webhooks secret). Unset: alerts are only visible at `GET /admin/v1/health`.
   */
  OPS_WEBHOOK_URL?: string;
  OPS_WEBHOOK_SECRET?: string;
  /**
   * Which requests get a `request` log line (worker/lib/request-log.ts): `problems`, only those answered with a
   * problem (4xx, 5xx); anything else, every request. Workers Logs counts lines; error lines are never sampled away.
   */
  REQUEST_LOG?: string;
  /** Alert thresholds (worker/ops/rules.ts); unset or not a positive number: the rule's default. */
  ALERT_OUTBOX_BACKLOG_SECONDS?: string;
  ALERT_DEAD_LETTERS?: string;
  ALERT_UNSEALED_LOG_SECONDS?: string;
  ALERT_SMS_FAILURES?: string;
  ALERT_WEBHOOK_FAILURE_RATE?: string;
  ALERT_TCF_LISTS_FAILING_SECONDS?: string;
  /** Where the cron fetches IAB's GVL v3 and its translations (default IAB's; docs/tcf.md#the-hosted-lists), and Google's ATP list. */
  TCF_GVL_BASE_URL?: string;
  TCF_ATP_URL?: string;
}

/**
 * The databases one piece of work reaches (worker/lib/databases.ts `databasesOf`): a request's D1 sessions, in
 * `c.var`, or the bindings themselves (the cron jobs, the queue consumer).
 */
export type Databases = {
  named: (name: string) => D1Database;
  /** The database holding a project. */
  project: (projectId: string) => D1Database;
  /** Every database in use, `DB` first. */
  every: () => D1Database[];
};

/** Who is calling, derived from a verified access token. */
export type Caller = {
  projectId: string;
  clientId: string;
  clientType: ClientType;
  /** Present on browser tokens scoped to one data subject. */
  identityId?: string;
  /** What this caller may do (worker/auth/scopes.ts). */
  scopes: readonly Scope[];
};

export type AppEnv = {
  Bindings: Env;
  Variables: {
    /** Who is calling, once the access check verified a credential bound to a project (absent otherwise). */
    caller: Caller;
    /** The operator (a member, or the admin token) once the access check verified an operator credential. */
    operator?: Operator;
    /** The route the break-glass admin token was used on; the entry raises `ops.alert` for it after the answer. */
    breakGlass?: string;
    /** What an audited change did, said by its route instead of its body (a body holding a secret: worker/accounts/sso-routes.ts). */
    auditChange?: { before?: unknown; after?: unknown };
    /** The call's D1 sessions (worker/lib/db.ts `d1Session`). */
    databases: Databases;
    /** The database holding the call's data: `DB`, or the project's once the access check knows the project. */
    db: D1Database;
    /** The request's id in the logs and in `X-Request-Id` (worker/lib/request-log.ts). */
    requestId: string;
    /** The `code` of the problem the call answered, for its log line. */
    problemCode?: string;
  };
};
