import { clientTypes, type ClientType } from "./table";

/**
 * Who may call what: the one vocabulary of scopes, what each permits, and who holds which by default.
 *
 * HOW A ROUTE DECLARES ITS ACCESS (every `defineRoute` must; an undeclared route answers 500 `undeclared_route`
 * and fails test/security/authorization-matrix.test.ts): spread one of the `access` builders below into the route,
 *
 *     defineRoute({ method: "post", path: "/privacy/v2/projects/{project_id}/permissions",
 *       ...access.project("consents:write", { in: "body", name: "identityId" }), ... })
 *
 * - `access.public`: no credential (token endpoint, discovery, visitor-token minting, portal sign-in).
 * - `access.client(scope)`: an access token from `POST /oauth/token` holding `scope` (e.g. the hub's `/v1/*`).
 * - `access.optional(scope)`: no credential, or an access token holding `scope`; a token that is sent must be valid
 *   (the widget's bootstrap: a page's visitor, or a page or webview holding a token).
 * - `access.project(scope, subject?)`: a project route (`{project_id}` in the path): an access token holding `scope`
 *   or a portal session. `subject` says where the request names the data subject; a token scoped to one identity
 *   may use the route only for its own identity, and only when the scope is one `identityScopedScopes` lists.
 * - `access.operator(scope)`: the admin API: the admin token (break-glass), or a portal session whose member's role
 *   (worker/auth/roles.ts) holds `scope`, in the project named by the path when there is one.
 * - `access.admin`: the deployment-wide admin API (`access.operator("admin")`: owners and the admin token).
 * - `access.session`: a portal session only.
 *
 * Routes defined with `defineRoute()` (worker/auth/router.ts) get the check; a plain `app.get` (or zod-openapi's own
 * `createRoute`) does not and must be a page or static file (the matrix test lists the allowed ones). Examples for
 * new routes: a widget feed read by pages, `access.public` (or `access.optional("consent-config:read")` if it may
 * take a token); a consent receipt for one subject, `access.project("identities:read", { in: "path", name:
 * "identityId" })`; an SMS delivery-report callback
 * from a gateway, `access.public` plus the gateway's own signature check. A new capability may add a scope here
 * (and to `defaultScopes` and docs/security.md#scopes).
 *
 * The declaration becomes the operation's OpenAPI `security` (so `/openapi.json` shows the scopes), and the one
 * middleware in worker/auth/authorize.ts enforces exactly that declaration; there are no path patterns anywhere.
 */
export const scopes = {
  "consent-config:read": "Read the published consent configuration, what the widget shows (`GET /privacy/v1/configurations`).",
  "config:read": "Read the project and its configuration: data groups, purposes and their versions, parties.",
  "config:write": "Change the project's privacy metadata and configuration.",
  "identities:create": "Create identities. A public client receives an identity-scoped token for the identity it creates.",
  "identities:read": "Read identities (by id, alias or referenceId) and their permission state.",
  "identities:write": "Update and delete identities.",
  "identities:export": "Export everything stored about an identity (`GET …/identities/{identityId}/data`).",
  "consents:write": "Record permissions and objections.",
  "requests:write": "File erasure and access requests.",
  "requests:read": "List and read privacy requests of every kind.",
  "requests:manage": "Move privacy requests between statuses and withdraw them.",
  "tokens:mint": "Mint tokens scoped to one identity, for pages and webviews.",
  "webhooks:manage": "Subscribe webhooks, rotate their secrets, read delivery logs, redeliver.",
  "audit:read": "Read the project's tamper-evident log, its signed heads and proofs, and the project-wide audit export.",
  "scans:read": "Read the project's stored site scans, their reports and diffs, and the scan schedule.",
  "scans:write": "Store scan reports, start remote scans of the project's registered origins and set the scan schedule.",
  "hub:sms": "Send SMS through the hub (`/v1/dcp/sms`, `/v1/sms`).",
  "hub:lookup": "Look up billing accounts (`/v1/customerLookup/…`).",
  "projects:read": "Operators: read projects and their settings in the admin API (no personal data).",
  "projects:write": "Operators: create projects and change their settings (metadata, jurisdictions, Consent Mode, privacy center).",
  "projects:delete": "Operators: delete a project and everything in it.",
  "clients:read": "Operators: read a project's clients (never their secrets).",
  "clients:manage": "Operators: create, change and delete clients and regenerate their secrets.",
  "blocking:write": "Operators: change a project's blocking list.",
  "members:read": "Operators: read the organization's members, invitations and sessions.",
  "members:manage": "Operators: invite and remove members, change roles, end others' sessions.",
  "audit-trail:read": "Operators: read the organization's audit trail of operator actions (`GET /admin/v1/audit`).",
  admin: "The deployment's operator: the hub (SMS outbox, senders, billing accounts), the email outbox, ops health, the erasure ledger. Never held by a client.",
} as const;

export type Scope = keyof typeof scopes;
export const allScopes = Object.keys(scopes) as Scope[];

/** Scopes only operators (members, the admin token) hold: the admin API's. */
export const operatorOnlyScopes = [
  "projects:read", "projects:write", "projects:delete", "clients:read", "clients:manage", "blocking:write",
  "members:read", "members:manage", "audit-trail:read", "admin",
] as const satisfies readonly Scope[];
export type OperatorOnlyScope = (typeof operatorOnlyScopes)[number];

/** Scopes a client may hold: everything but the operator's. */
export const clientScopes = allScopes.filter(
  (scope): scope is Exclude<Scope, OperatorOnlyScope> => !(operatorOnlyScopes as readonly string[]).includes(scope),
);
export type ClientScope = (typeof clientScopes)[number];

// The client types are the clients table's column (the data model, below this layer); re-exported for the callers.
export { clientTypes, type ClientType };

/** Confidential clients keep their secret on a server; public ones ship it in a page or an app (RFC 6749 §2.1). */
export const clientKinds: Record<ClientType, "confidential" | "public"> = {
  backend: "confidential",
  web: "public",
  ios: "public",
  android: "public",
};

const publicDefaults: readonly ClientScope[] = ["consent-config:read", "config:read", "identities:create"];

/**
 * What a client's tokens may do when the client has no explicit scope list; an explicit list can only narrow
 * this (admin API and portal). Public clients act on data subjects only through identity-scoped tokens.
 */
export const defaultScopes: Record<ClientType, readonly ClientScope[]> = {
  backend: clientScopes,
  web: publicDefaults,
  ios: publicDefaults,
  android: publicDefaults,
};

/**
 * What a token scoped to one identity (claim `idn`; browser, webview and visitor tokens) holds. The scopes marked
 * `true` act on data subjects: a route needing one must declare where it names its subject, and the identity
 * named there must be the token's own (403 `insufficient_scope` otherwise).
 */
export const identityScopedScopes: Partial<Record<Scope, { ownIdentityOnly: boolean }>> = {
  "consent-config:read": { ownIdentityOnly: false },
  "identities:read": { ownIdentityOnly: true },
  "consents:write": { ownIdentityOnly: true },
};

/** What the admin token (break-glass) and an owner may do: everything, on every project. */
export const operatorScopes: readonly Scope[] = allScopes;

/** Where a request names its data subject. */
export type Subject = { in: "path" | "body"; name: string };

/** OpenAPI extension under which a route's subject is published. */
export const subjectExtension = "x-assent-subject" as const;

/** A route's access declaration: OpenAPI security requirements (scheme → scopes), and its subject when it has one. */
export type Access = { security: Record<string, string[]>[]; [subjectExtension]?: Subject };

export const access = {
  public: { security: [] } as Access,
  client: (scope: ClientScope): Access => ({ security: [{ oauth2: [scope] }] }),
  /** An empty requirement in OpenAPI: the operation may be called without any credential. */
  optional: (scope: ClientScope): Access => ({ security: [{ oauth2: [scope] }, {}] }),
  project: (scope: ClientScope, subject?: Subject): Access => ({
    security: [{ oauth2: [scope] }, { portalSession: [scope] }],
    ...(subject ? { [subjectExtension]: subject } : {}),
  }),
  operator: (scope: Scope): Access => ({ security: [{ adminToken: [scope] }, { portalSession: [scope] }] }),
  admin: { security: [{ adminToken: ["admin"] }, { portalSession: ["admin"] }] } as Access,
  session: { security: [{ portalSession: [] }] } as Access,
};

/** The token endpoint's `scope` parameter (RFC 6749 §3.3): space-delimited, order and repeats irrelevant. */
export const parseScopeParameter = (value: string) => [...new Set(value.split(" ").filter(Boolean))];

/** The scopes a client may hold: its explicit list if it has one, else its type's defaults. */
export const scopesOfClient = (type: ClientType, explicit: readonly ClientScope[] | null) => explicit ?? defaultScopes[type];
