import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** The roles a member holds in an organization, and where set, a different one in a project (worker/auth/roles.ts: what each may do). */
export const roles = ["owner", "admin", "editor", "request_handler", "viewer"] as const;
export type Role = (typeof roles)[number];

/** How an operator proved who they are; every audit entry names it. `admin-token` is the break-glass credential. */
export const credentialKinds = ["admin-token", "email-link", "passkey", "sso", "api_token"] as const;
export type CredentialKind = (typeof credentialKinds)[number];

/**
 * Operators as people (docs/security.md#roles), all in `DB` whichever database a project lives in: organizations own
 * projects, members hold a role in their organization and, where set, another per project.
 */
export const organizations = sqliteTable("organizations", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  created: text("created").notNull(),
});

/** A member belongs to one organization; an address is one member (sign-in by email names the member). */
export const members = sqliteTable(
  "members",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Lower-cased. */
    email: text("email").notNull(),
    name: text("name"),
    role: text("role", { enum: roles }).$type<Role>().notNull(),
    created: text("created").notNull(),
    /** When the member first signed in; null while their invitation is pending (it expires: worker/accounts/sign-in.ts). */
    accepted: text("accepted"),
  },
  (t) => [uniqueIndex("members_email_idx").on(t.email), index("members_organization_idx").on(t.organizationId)],
);

/** Which organization owns a project (projects may live in other databases, so this is not a column of theirs). */
export const organizationProjects = sqliteTable(
  "organization_projects",
  {
    projectId: text("project_id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
  },
  (t) => [index("organization_projects_organization_idx").on(t.organizationId)],
);

/** A member's role in one project, replacing their organization role there. */
export const projectRoles = sqliteTable(
  "project_roles",
  {
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    projectId: text("project_id").notNull(),
    role: text("role", { enum: roles }).$type<Role>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.projectId] })],
);

export const signInLinkKinds = ["sign-in", "invitation"] as const;
export type SignInLinkKind = (typeof signInLinkKinds)[number];

/**
 * One-time sign-in links (worker/accounts/sign-in.ts): only the SHA-256 of the link's secret is kept; `used` is set by
 * the one update that redeems it, so a link signs in once.
 */
export const signInLinks = sqliteTable(
  "sign_in_links",
  {
    idHash: text("id_hash").primaryKey(),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    expires: text("expires").notNull(),
    used: text("used"),
    /** An invitation's link accepts it; only an accepted member may ask for a sign-in link. */
    kind: text("kind", { enum: signInLinkKinds }).notNull().default("sign-in"),
  },
  (t) => [index("sign_in_links_expires_idx").on(t.expires)],
);

/**
 * The audit trail of operator actions (worker/auth/audit.ts): a hash chain per organization, each entry's hash
 * over its canonical payload, which names the hash of the entry before it, so an edited or removed entry breaks the
 * chain from there on.
 */
export const auditEntries = sqliteTable(
  "audit_entries",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    organizationId: text("organization_id").notNull(),
    memberId: text("member_id"),
    projectId: text("project_id"),
    operationId: text("operation_id").notNull(),
    /** The object acted on: the request path (ids included). */
    object: text("object").notNull(),
    entryHash: text("entry_hash").notNull(),
    previousHash: text("previous_hash"),
    payload: text("payload").notNull(),
    created: text("created").notNull(),
  },
  (t) => [
    uniqueIndex("audit_entries_chain_idx").on(t.organizationId, t.previousHash),
    index("audit_entries_organization_idx").on(t.organizationId, t.created),
    index("audit_entries_member_idx").on(t.organizationId, t.memberId, t.created),
  ],
);

/**
 * Personal API tokens (worker/accounts/api-tokens.ts): a member's own bearer credential, `<id>.<secret>`; only the
 * secret's SHA-256 is kept. No foreign key to the member: removing a member revokes their tokens (`revoked`), so a
 * token of a removed member answers "revoked" rather than "unknown".
 */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: text("id").primaryKey(),
    memberId: text("member_id").notNull(),
    organizationId: text("organization_id").notNull(),
    name: text("name").notNull(),
    secretHash: text("secret_hash").notNull(),
    /** JSON array of scopes, within the member's role when made; each use is checked against their role then too. */
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
    created: text("created").notNull(),
    expires: text("expires").notNull(),
    revoked: text("revoked"),
  },
  (t) => [index("api_tokens_member_idx").on(t.memberId)],
);

/** A member's passkeys (WebAuthn credentials, worker/accounts/passkeys.ts): the id and public key, base64url. */
export const passkeys = sqliteTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull(),
    transports: text("transports", { mode: "json" }).$type<string[]>().notNull(),
    created: text("created").notNull(),
    lastUsed: text("last_used"),
  },
  (t) => [index("passkeys_member_idx").on(t.memberId)],
);

export const webauthnPurposes = ["register", "sign-in"] as const;

/**
 * WebAuthn challenges, one per binding: the SHA-256 of the portal session's cookie (registering a passkey) or of the
 * pending sign-in's cookie (signing in). Deleted by the one statement that checks them, so each is used once.
 */
export const webauthnChallenges = sqliteTable(
  "webauthn_challenges",
  {
    bindingHash: text("binding_hash").primaryKey(),
    purpose: text("purpose", { enum: webauthnPurposes }).notNull(),
    challenge: text("challenge").notNull(),
    memberId: text("member_id").references(() => members.id, { onDelete: "cascade" }),
    expires: text("expires").notNull(),
  },
  (t) => [index("webauthn_challenges_expires_idx").on(t.expires)],
);

/**
 * An organization's single sign-on (worker/accounts/sso.ts): its OpenID Connect provider and client. The client
 * secret is needed in the clear at each sign-in, so it is kept encrypted (AES-256-GCM under `WEBHOOK_SECRETS_KEY`,
 * worker/events/secrets.ts), never hashed.
 */
export const ssoConfigurations = sqliteTable("sso_configurations", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  issuer: text("issuer").notNull(),
  clientId: text("client_id").notNull(),
  clientSecretEncrypted: text("client_secret_encrypted").notNull(),
  /** The role of a member made at their first sign-in (just in time). */
  defaultRole: text("default_role", { enum: roles }).$type<Role>().notNull(),
  updated: text("updated").notNull(),
});

/** The email domains bound to an organization's single sign-on; a domain is bound to one organization. */
export const ssoDomains = sqliteTable(
  "sso_domains",
  {
    domain: text("domain").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
  },
  (t) => [index("sso_domains_organization_idx").on(t.organizationId)],
);

/**
 * A single sign-on under way, from the redirect to the provider to its callback: found by the SHA-256 of `state`,
 * deleted by the one statement that redeems it (single use), bound to the browser that started it.
 */
export const ssoPendingSignIns = sqliteTable(
  "sso_pending_sign_ins",
  {
    stateHash: text("state_hash").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    nonce: text("nonce").notNull(),
    codeVerifier: text("code_verifier").notNull(),
    /** The SHA-256 of the random value in the starting browser's `__Host-assent_sso` cookie. */
    browserHash: text("browser_hash").notNull(),
    expires: text("expires").notNull(),
  },
  (t) => [index("sso_pending_sign_ins_expires_idx").on(t.expires)],
);
