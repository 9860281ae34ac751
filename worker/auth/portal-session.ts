import { eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Credential, Grant } from "./credential";
import type { Scope } from "./scopes";
import { members, type CredentialKind } from "../accounts/table";
import { ensureOrganization, roleInProject, type Operator } from "./operators";
import { roleScopes, type Role } from "./roles";
import type { AppEnv, Env } from "../env";
import { constantTimeEqual, randomSecret, sha256Hex } from "../lib/crypto";
import { compiled } from "../lib/compiled";
import { getDb } from "../lib/db";
import { ApiError, notFound } from "../lib/errors";
import { requireSetting } from "../lib/settings";
import { projectExists } from "../projects/queries";
import { portalSessions } from "../portal/table";

/**
 * Portal sessions. Signing in with the admin token yields a random session id in an HttpOnly, Secure,
 * SameSite=Strict cookie; D1 keeps only the id's SHA-256 (worker/portal/table.ts, in `DB`, read on the primary so a
 * new session is seen at once), so a dump cannot be replayed.
 * Each session has a CSRF token that the SPA holds in memory and sends as `x-csrf-token` on every unsafe
 * call (synchronizer-token pattern, on top of SameSite=Strict and an Origin check).
 */

/**
 * The cookie is `__Host-assent_portal` (hono adds the prefix): a browser only accepts a `__Host-` cookie with
 * Secure, Path=/ and no Domain, so no subdomain can plant or shadow it.
 */
const cookieName = "assent_portal";
export const sessionCookie = `__Host-${cookieName}`;
export const csrfHeader = "x-csrf-token";
const defaultTtlSeconds = 3600;
/** A session shorter than a minute would end before the portal has loaded. */
const minimumTtlSeconds = 60;

export type PortalSession = {
  csrfToken: string;
  /** SHA-256 of the admin token that signed in (break-glass sessions): rotating ADMIN_TOKEN ends them. */
  adminFingerprint: string;
  /** The member signed in; null: the admin token (break-glass). */
  memberId: string | null;
  credential: CredentialKind;
  created: string;
  expires: string;
};

export const sessionTtl = (env: Env) =>
  Math.max(minimumTtlSeconds, Number(env.PORTAL_SESSION_TTL_SECONDS ?? defaultTtlSeconds) || defaultTtlSeconds);

const unsafeMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const unauthorized = (detail: string) => new ApiError(401, "unauthorized", detail);

/** Whether the request carries a session cookie (valid or not: only reading the session tells). */
export const hasSessionCookie = (c: Context<AppEnv>) => getCookie(c, cookieName, "host") !== undefined;

/** The stored id (SHA-256 of the cookie's value) of the session this request carries; "" without one. */
export const currentSessionHash = async (c: Context<AppEnv>) => {
  const sessionId = getCookie(c, cookieName, "host");
  return sessionId ? sha256Hex(sessionId) : "";
};

/** A request that carries the portal cookie and no Authorization header is a portal call. */
export const isPortalCall = (c: Context<AppEnv>) => c.req.header("authorization") === undefined && hasSessionCookie(c);

/**
 * Refuses all but same-origin callers: browsers send `Origin` on unsafe requests, and `Sec-Fetch-Site`; one of
 * them must say this service's own origin, and neither may say another. A request with neither is refused.
 */
export function requireSameOrigin(c: Context<AppEnv>) {
  const origin = c.req.header("origin");
  const site = c.req.header("sec-fetch-site");
  const sameOrigin = origin !== undefined ? origin === new URL(c.req.url).origin : site === "same-origin";
  if (!sameOrigin || (site !== undefined && site !== "same-origin")) {
    throw new ApiError(
      403,
      "cross_origin_refused",
      "The portal only accepts state changes from its own origin (a same-origin Origin or Sec-Fetch-Site header).",
    );
  }
}

/** Whether `presented` is the admin token (ADMIN_TOKEN only: a session outlives no rotation). */
export async function isAdminToken(c: Context<AppEnv>, presented: string) {
  return constantTimeEqual(presented, requireSetting(c.env, "ADMIN_TOKEN"));
}

/** Opens a session for a member (signed in by link, passkey or single sign-on) or, with `memberId` null, the admin token. */
export async function createSession(c: Context<AppEnv>, memberId: string | null, credential: CredentialKind): Promise<PortalSession> {
  const ttl = sessionTtl(c.env);
  const sessionId = randomSecret("ps");
  const session: PortalSession = {
    csrfToken: randomSecret("csrf"),
    adminFingerprint: memberId === null ? await sha256Hex(requireSetting(c.env, "ADMIN_TOKEN")) : "",
    memberId,
    credential,
    created: new Date().toISOString(),
    expires: new Date(Date.now() + ttl * 1000).toISOString(),
  };
  await getDb(c.env.DB)
    .insert(portalSessions)
    .values({ idHash: await sha256Hex(sessionId), ...session, address: c.req.header("cf-connecting-ip") ?? null });
  setCookie(c, cookieName, sessionId, {
    httpOnly: true,
    secure: true,
    sameSite: "Strict",
    path: "/",
    maxAge: ttl,
    prefix: "host",
  });
  return session;
}

/** A stored session with its member's organization and role (null for the admin token's), read with it. */
type StoredSession = PortalSession & { organizationId: string | null; role: Role | null };

/**
 * The session and its member in one statement, compiled once per isolate: every portal call reads it, and a read
 * each (with drizzle building both) was most of a portal call's own CPU (docs/testing.md#where-the-time-goes).
 */
const sessionByHash = compiled<"idHash">(
  (p) => sql`SELECT ${portalSessions.csrfToken} AS csrfToken, ${portalSessions.adminFingerprint} AS adminFingerprint,
      ${portalSessions.memberId} AS memberId, ${portalSessions.credential} AS credential, ${portalSessions.created} AS created,
      ${portalSessions.expires} AS expires, ${members.organizationId} AS organizationId, ${members.role} AS role
    FROM ${portalSessions} LEFT JOIN ${members} ON ${members.id} = ${portalSessions.memberId}
    WHERE ${portalSessions.idHash} = ${p.idHash} LIMIT 1`,
);

/**
 * The session named by the cookie, or null when there is none or it has expired, been signed out or revoked, its
 * member was removed (the row goes with them), or, opened by the admin token, it outlived that token.
 */
export async function readSession(c: Context<AppEnv>): Promise<StoredSession | null> {
  const sessionId = getCookie(c, cookieName, "host");
  if (!sessionId) return null;
  const session = await sessionByHash(c.env.DB, { idHash: await sha256Hex(sessionId) }).first<StoredSession>();
  if (!session || Date.parse(session.expires) <= Date.now()) return null;
  if (session.memberId !== null) return session;
  const configured = requireSetting(c.env, "ADMIN_TOKEN");
  if (!(await constantTimeEqual(session.adminFingerprint, await sha256Hex(configured)))) return null;
  return session;
}

export async function endSession(c: Context<AppEnv>): Promise<void> {
  const sessionId = getCookie(c, cookieName, "host");
  if (sessionId) await getDb(c.env.DB).delete(portalSessions).where(eq(portalSessions.idHash, await sha256Hex(sessionId)));
  deleteCookie(c, cookieName, { path: "/", secure: true, httpOnly: true, sameSite: "Strict", prefix: "host" });
}

/**
 * A valid session, with the CSRF checks on unsafe methods: same origin, and the session's CSRF token in
 * `x-csrf-token`. Throws 401 without a valid session, 403 when a check fails.
 */
export async function requireSession(c: Context<AppEnv>): Promise<StoredSession> {
  const session = await readSession(c);
  if (!session) throw unauthorized("The portal session has expired or was signed out; sign in again.");
  if (unsafeMethods.has(c.req.method)) {
    requireSameOrigin(c);
    const presented = c.req.header(csrfHeader);
    if (!presented || !(await constantTimeEqual(presented, session.csrfToken))) {
      throw new ApiError(403, "csrf_failed", `A state-changing portal call needs the session's ${csrfHeader} header.`);
    }
  }
  return session;
}

/** The operator a session stands for: its member, or the admin token acting as an owner of the first organization. */
async function sessionOperator(c: Context<AppEnv>, session: StoredSession): Promise<Operator> {
  if (session.memberId === null) return { memberId: null, organizationId: await ensureOrganization(c), role: "owner", credential: "admin-token" };
  if (session.organizationId === null || session.role === null) throw unauthorized("The portal session has ended; sign in again.");
  return { memberId: session.memberId, organizationId: session.organizationId, role: session.role, credential: session.credential };
}

/**
 * The portal session as a credential (one of worker/auth/authorize.ts): an operator holding their role's scopes
 * (worker/auth/roles.ts), in a project their project role where set. On a project route it acts as that
 * project's backend would, when the project exists and is their organization's (404 otherwise).
 */
export const portalSessionCredential: Credential = {
  presented: isPortalCall,
  authenticate: async (c) => operatorGrant(c, await sessionOperator(c, await requireSession(c)), "portal"),
  missing: () => unauthorized("Sign in to the portal first."),
};

/**
 * What an operator (a member's session or API token) may do on this call: their role's scopes, in a project their
 * project role's, narrowed to `within` (an API token's scopes) where given. On a project route they act as that
 * project's backend would, when the project exists and is their organization's (404 otherwise).
 */
export async function operatorGrant(c: Context<AppEnv>, operator: Operator, clientId: string, within?: readonly Scope[]): Promise<Grant> {
  c.set("operator", operator);
  const projectId = c.req.param("project_id");
  const role = projectId === undefined ? operator.role : await roleInProject(c, operator, projectId);
  const scopes = within === undefined ? roleScopes[role] : roleScopes[role].filter((scope) => within.includes(scope));
  if (projectId === undefined) return { scopes };
  if (!(await projectExists(c.var.db, projectId))) throw notFound("Project");
  return { scopes, caller: { projectId, clientId, clientType: "backend", scopes } };
}
