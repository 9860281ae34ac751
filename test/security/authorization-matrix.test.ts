// The authorization matrix, generated from /openapi.json: every operation against every kind of caller, each with
// its exact expected status and code. What each kind of caller holds is pinned here (it is
// docs/security.md#scopes), not read from the Worker, so a change of rights shows up as a failing cell.
import { z } from "@hono/zod-openapi";
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../worker/app";
import { createRouter, defineRoute } from "../../worker/auth/router";
import { openApiDocument } from "../api/helpers";
import { buildCallers, send, type CallerKind, type RoleKind } from "./callers";
import { roles, roleScopes } from "../../worker/auth/roles";

type Operation = { method: string; path: string; operationId: string; security?: Record<string, string[]>[]; subject?: { in: string; name: string } };
const methods = ["get", "post", "put", "patch", "delete"];
const doc = (await openApiDocument()).body;
const signOut = (op: Operation) => op.method === "delete" && op.path === "/portal/api/session";
const operations: Operation[] = Object.entries<Record<string, any>>(doc.paths)
  .flatMap(([path, item]) =>
    methods.filter((m) => item[m]).map((method) => ({
      method,
      path,
      operationId: item[method].operationId,
      security: item[method].security,
      subject: item[method]["x-assent-subject"],
    })),
  )
  .sort((a, b) => Number(signOut(a)) - Number(signOut(b)));

const backendScopes = [
  "consent-config:read", "config:read", "config:write", "identities:create", "identities:read", "identities:write",
  "identities:export", "consents:write", "requests:write", "requests:read", "requests:manage", "tokens:mint",
  "webhooks:manage", "audit:read", "scans:read", "scans:write", "hub:sms", "hub:lookup",
];
const publicScopes = ["consent-config:read", "config:read", "identities:create"];
/** The admin API's scopes: an owner's (the admin token acts as one) and no client's. */
const operatorScopes = [
  "projects:read", "projects:write", "projects:delete", "clients:read", "clients:manage", "blocking:write",
  "members:read", "members:manage", "audit-trail:read", "admin",
];
/** Identity-scoped tokens: these scopes, the last two for their own identity only. */
const identityScopes = ["consent-config:read", "identities:read", "consents:write"];
const ownIdentityOnly = ["identities:read", "consents:write"];

const held: Record<CallerKind, string[]> = {
  none: [],
  "admin token": [...backendScopes, ...operatorScopes],
  "portal session": [...backendScopes, ...operatorScopes],
  "portal session without CSRF": [...backendScopes, ...operatorScopes],
  backend: backendScopes,
  web: publicScopes,
  ios: publicScopes,
  android: publicScopes,
  "identity-scoped (own)": identityScopes,
  "identity-scoped (other)": identityScopes,
  "another project's backend": backendScopes,
  // Generated from the role table: a member's session holds exactly their role's scopes.
  ...(Object.fromEntries(roles.map((role) => [`portal session: ${role}`, [...roleScopes[role]]])) as Record<RoleKind, string[]>),
};
const kinds = Object.keys(held) as CallerKind[];
const presents = (kind: CallerKind) =>
  kind === "none" ? "nothing" : kind.startsWith("portal") ? "cookie" : kind === "admin token" ? "admin bearer" : "jwt bearer";

const world = await buildCallers();

/** Deleting the project itself: the matrix names a missing one, so it deletes nothing. */
const deletesProject = (op: Operation) => op.method === "delete" && op.path.endsWith("/{project_id}");

/** Ids a request names: real for the project and the own identity (never on DELETE), missing for everything else. */
function concretePath(op: Operation) {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === "project_id" && !deletesProject(op)) return world.projectId;
    if (name === "identityId" && op.method !== "delete") return world.own;
    if (name === "billing_account") return "9999999";
    if (name === "version") return "1";
    return `missing_${name}`;
  });
}

/**
 * The request body: a body naming its subject carries the own identity and an unknown field (valid JSON that fails
 * validation once access is granted); any other body is malformed JSON, refused (400) only after access is
 * granted. Either way no call of the matrix changes anything (but signing out, which runs last).
 */
const bodyFor = (op: Operation) =>
  op.method === "get" || op.method === "delete"
    ? undefined
    : op.subject?.in === "body"
      ? JSON.stringify({ [op.subject.name]: world.own, notAField: true })
      : "{";

type Cell = { status: number; code: string | null };

function expected(op: Operation, kind: CallerKind): Cell {
  // An empty requirement (`{}`) lets a request that presents none of the other schemes through, without a caller.
  const requirements = op.security!.map((requirement) => Object.entries(requirement)[0] as [string, string[]] | undefined);
  const alternatives = requirements.filter((entry) => entry !== undefined);
  const presented = presents(kind);
  const chosen = alternatives.find(([scheme]) =>
    scheme === "portalSession" ? presented === "cookie" : presented === "admin bearer" || presented === "jwt bearer",
  );
  if (!chosen) return requirements.includes(undefined) ? granted(op) : { status: 401, code: "unauthorized" };
  const [scheme, needed] = chosen;
  if ((scheme === "adminToken") !== (presented === "admin bearer") && scheme !== "portalSession") return { status: 401, code: "unauthorized" };
  if (kind === "portal session without CSRF" && op.method !== "get") return { status: 403, code: "csrf_failed" };
  // A member's role is looked up in the project the path names: one not their organization's is not found, whatever the role.
  if (kind.startsWith("portal session: ") && deletesProject(op)) return { status: 404, code: "not_found" };
  if (!needed.every((scope) => held[kind].includes(scope))) return { status: 403, code: "insufficient_scope" };
  if (kind === "another project's backend" && op.path.includes("{project_id}")) return { status: 404, code: "not_found" };
  if (kind.startsWith("identity-scoped") && needed.some((scope) => ownIdentityOnly.includes(scope))) {
    if (!op.subject || kind === "identity-scoped (other)") return { status: 403, code: "insufficient_scope" };
  }
  return granted(op);
}

/** Answers to a caller who passed the access check that the general rules below do not predict. */
const grantedAnswers: Record<string, Cell> = {
  // A new project's log has no signed head until the cron seals one (an inclusion proof needs a head before its query).
  "GET /privacy/v2/projects/{project_id}/log/head": { status: 404, code: "not_sealed" },
  "GET /privacy/v2/projects/{project_id}/log/proofs/inclusion": { status: 404, code: "not_sealed" },
  // Required query parameters the matrix does not send.
  "GET /privacy/v2/projects/{project_id}/log/proofs/consistency": { status: 400, code: "validation_failed" },
  "GET /privacy/v2/projects/{project_id}/audit-export": { status: 400, code: "validation_failed" },
  // The organization has no single sign-on configured.
  "GET /admin/v1/sso": { status: 404, code: "not_found" },
  "DELETE /admin/v1/sso": { status: 404, code: "not_found" },
};

/** What a caller who passed the access check gets for the matrix's request. */
function granted(op: Operation): Cell {
  // Operations whose answer for an empty project is fixed by what they need beyond access.
  const special = grantedAnswers[`${op.method.toUpperCase()} ${op.path}`];
  if (special) return special;
  if (op.method === "post" || op.method === "put" || op.method === "patch") {
    return op.subject?.in === "body" ? { status: 400, code: "validation_failed" } : { status: 400, code: "malformed_json" };
  }
  const namesMissing = /\{(?!project_id\})(?!identityId\})\w+\}/.test(op.path) || (op.method === "delete" && op.path.includes("{identityId}")) || deletesProject(op);
  if (namesMissing) return { status: 404, code: "not_found" };
  return op.method === "delete" ? { status: 204, code: null } : { status: 200, code: null };
}

describe("every operation declares its access", () => {
  it("lists a security requirement (possibly empty: public) on every operation of /openapi.json", () => {
    const undeclared = operations.filter((op) => !Array.isArray(op.security)).map((op) => `${op.method.toUpperCase()} ${op.path}`);
    expect(undeclared, "declare access with `...access.*` from worker/auth/scopes.ts").toEqual([]);
  });

  it("names only known scopes and schemes", () => {
    const schemes = Object.keys(doc.components.securitySchemes);
    const known = Object.keys(doc.components.securitySchemes.oauth2.flows.clientCredentials.scopes);
    for (const op of operations) {
      for (const requirement of op.security ?? []) {
        for (const [scheme, scopes] of Object.entries(requirement)) {
          expect(schemes, `${op.method} ${op.path}`).toContain(scheme);
          for (const scope of scopes) expect(known, `${op.method} ${op.path}`).toContain(scope);
        }
      }
    }
  });

  it("has no routes outside the OpenAPI document but the HTML pages and static files", () => {
    const documented = new Set(operations.map((op) => `${op.method.toUpperCase()} ${op.path.replace(/\{(\w+)\}/g, ":$1")}`));
    const pages = new Set(["GET /", "GET /healthz", "GET /readyz", "GET /openapi.json", "GET /docs", "GET /docs/:page", "GET /portal", "GET /portal/*",
      "GET /robots.txt", "GET /favicon.svg", "GET /favicon.ico", "GET /privacy-center/:project_id"]);
    const others = app.routes
      .filter((route) => route.method !== "ALL")
      .map((route) => `${route.method} ${route.path}`)
      .filter((route) => !documented.has(route) && !pages.has(route) && !route.startsWith("GET /demo/") && !route.startsWith("GET /widget/"));
    expect(others).toEqual([]);
  });
});

describe("a route without a declaration", () => {
  it("is refused at run time (500 undeclared_route) and shows in the document without security, failing the check above", async () => {
    const router = createRouter();
    router.openapi(
      defineRoute({ method: "get", path: "/undeclared", responses: { 200: { description: "ok", content: { "application/json": { schema: z.object({}) } } } } }),
      (c) => c.json({}, 200),
    );
    router.onError((error, c) => c.json({ code: (error as { code?: string }).code }, 500));
    const res = await router.fetch(new Request("http://assent.test/undeclared"), env, createExecutionContext());
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 500, body: { code: "undeclared_route" } });
    const doc = router.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
    expect(doc.paths!["/undeclared"]!.get!.security).toBeUndefined();
  });
});

/** Scopes whose reads disclose personal data (docs/security.md#the-audit-trail): every call holding one is audited. */
const personalDataScopes = ["identities:read", "identities:export", "requests:read", "audit:read"];
const readsPersonalData = (op: Operation) => (op.security ?? []).some((r) => Object.values(r).flat().some((scope) => personalDataScopes.includes(scope)));

/** The members the matrix signed in, by role, as the audit trail names them. */
const memberIds = Object.fromEntries(
  await Promise.all(
    roles.map(async (role) => [role, (await env.DB.prepare("SELECT id FROM members WHERE email = ?").bind(`${role}@matrix.example`).first<{ id: string }>())?.id]),
  ),
) as Record<string, string>;
const lastAuditSeq = async () => (await env.DB.prepare("SELECT coalesce(max(seq), 0) AS seq FROM audit_entries").first<{ seq: number }>())!.seq;

describe.each(kinds)("as %s", (kind) => {
  const declared = operations.filter((op) => Array.isArray(op.security) && op.security.length > 0);
  const role = roles.find((r) => kind === `portal session: ${r}`);
  it.each(declared.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))("%s", async (_, op) => {
    const since = role ? await lastAuditSeq() : 0;
    const reply = await send(op.method.toUpperCase(), concretePath(op), world.headers[kind], bodyFor(op));
    const got: Cell = { status: reply.status, code: reply.status >= 400 ? ((reply.body as { code?: string } | null)?.code ?? "(no code)") : null };
    expect(got, JSON.stringify(reply.body)).toEqual(expected(op, kind));
    // A member's every write, and every read of personal data, leaves exactly one entry naming them: on every route
    // a member's session signs in to (a public route such as the widget's bootstrap serves them as anyone).
    const asMember = (op.security ?? []).some((requirement) => "portalSession" in requirement);
    if (role && asMember && (op.method !== "get" || readsPersonalData(op)) && reply.status !== 401) {
      const entries = await env.DB.prepare("SELECT member_id, operation_id, object FROM audit_entries WHERE seq > ?").bind(since).all();
      expect(entries.results).toEqual([{ member_id: memberIds[role], operation_id: op.operationId, object: concretePath(op).split("?")[0] }]);
    }
  });
});
