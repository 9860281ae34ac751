import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { access, type Access } from "../auth/scopes";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";
import { createRouter, defineRoute } from "../auth/router";
import { conflictProblem, jsonBody, jsonResponse, problems } from "../lib/schemas";
import { auditQuery, type AuditPayload } from "../auth/audit";
import { ensureOrganization } from "../auth/operators";
import { createFirstOwner, createOrganization } from "./bootstrap";
import { endSessions, inviteMember, listMembers, removeMember, sessionsOf, updateMember } from "./members";
import { memberAccessRoutes } from "./member-access";
import type { Operator } from "../auth/operators";
import { AuditEntry, AuditQuery, Bootstrap, BootstrapResult, Invitation, Member, MemberParams, NewOrganization, OrganizationResult, MemberUpdate, SessionInfo, SessionParams } from "./schemas";
import { mailSignInLink } from "./sign-in";
import { apiTokenRoutes } from "./api-tokens";
import { passkeyRoutes } from "./passkeys";
import { ssoAdminRoutes, ssoSignInRoutes } from "./sso-routes";

/** Members, their sessions, the audit trail and the bootstrap, mounted at `/admin/v1`. */
export const accountRoutes = createRouter();

/** The signed-in member's own sessions, mounted at `/portal/api`. */
export const ownSessionRoutes = createRouter();

// Single sign-on per organization: its configuration, and signing in through it.
accountRoutes.route("/sso", ssoAdminRoutes);
// Another member's sessions and API tokens, as an owner sees and ends them.
accountRoutes.route("/members", memberAccessRoutes);
ownSessionRoutes.route("/sso", ssoSignInRoutes);

const tags = ["Members"];

/** The access check has set the operator on every route here (all need an operator credential). */
const operatorOf = (c: Context<AppEnv>): Operator => c.var.operator!;

accountRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/members",
    operationId: "listMembers",
    tags,
    ...access.operator("members:read"),
    summary: "The organization's members and their roles",
    responses: { 200: jsonResponse(z.object({ items: z.array(Member) }), "The members."), ...problems },
  }),
  async (c) => c.json({ items: await listMembers(c, operatorOf(c).organizationId) }, 200),
);

accountRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/members",
    operationId: "inviteMember",
    tags,
    ...access.operator("members:manage"),
    summary: "Invite a member by email",
    description:
      "Makes the member and mails them a sign-in link valid for 7 days (the invitation). Only owners hold " +
      "`members:manage`, so only they grant roles; project roles name the organization's projects only (404). An address " +
      "already in another organization is answered the same as a new one and gets nothing (no enumeration).",
    request: { body: jsonBody(Invitation) },
    responses: { 202: { description: "Invited." }, ...problems, ...conflictProblem },
  }),
  async (c) => {
    await inviteMember(c, operatorOf(c), c.req.valid("json"));
    return c.body(null, 202);
  },
);

accountRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/members/{memberId}",
    operationId: "updateMember",
    tags,
    ...access.operator("members:manage"),
    summary: "Change a member's roles",
    description: "The organization always keeps one owner (409 `last_owner`).",
    request: { params: MemberParams, body: jsonBody(MemberUpdate) },
    responses: { 204: { description: "Changed." }, ...problems, ...conflictProblem },
  }),
  async (c) => {
    await updateMember(c, operatorOf(c), c.req.valid("param").memberId, c.req.valid("json"));
    return c.body(null, 204);
  },
);

accountRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/members/{memberId}",
    operationId: "removeMember",
    tags,
    ...access.operator("members:manage"),
    summary: "Remove a member",
    description: "Their sessions end at once. The organization always keeps one owner (409 `last_owner`).",
    request: { params: MemberParams },
    responses: { 204: { description: "Removed." }, ...problems, ...conflictProblem },
  }),
  async (c) => {
    await removeMember(c, operatorOf(c), c.req.valid("param").memberId);
    return c.body(null, 204);
  },
);

const csvColumns = ["seq", "at", "memberId", "role", "credential", "operationId", "method", "object", "projectId", "status", "address", "entryHash", "previous"] as const;
const csvCell = (value: unknown) => {
  const text = value === null || value === undefined ? "" : String(value);
  // Quoted always; a leading =, +, - or @ is prefixed so a spreadsheet does not run it as a formula.
  return `"${(/^[=+\-@]/.test(text) ? `'${text}` : text).replace(/"/g, '""')}"`;
};

accountRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/audit",
    operationId: "listAuditEntries",
    tags,
    ...access.operator("audit-trail:read"),
    summary: "The organization's audit trail of operator actions",
    description:
      "Every change an operator made, every read of personal data and every refusal of an operator (an escalation " +
      "attempt), newest first: who (member, role, credential), what (operation id), which object (the path), when and " +
      "from which address; configuration changes with what they set. Each entry's hash covers its payload, which " +
      "names the hash of the entry before (a hash chain). `format=jsonl` or `csv` downloads the same page.",
    request: { query: AuditQuery },
    responses: {
      200: {
        description: "The entries; with `format=jsonl` one AuditEntry per line (`application/x-ndjson`), with `format=csv` a table (`text/csv`).",
        content: {
          "application/json": { schema: z.object({ items: z.array(AuditEntry) }) },
          "application/x-ndjson": { schema: z.string() },
          "text/csv": { schema: z.string() },
        },
      },
      ...problems,
    },
  }),
  async (c) => {
    const { format, ...filter } = c.req.valid("query");
    const rows = await auditQuery(c, { ...filter, organizationId: operatorOf(c).organizationId });
    const items = rows.map((row) => ({ seq: row.seq, entryHash: row.entryHash, ...(JSON.parse(row.payload) as AuditPayload) }));
    if (format === "json") return c.json({ items }, 200);
    const download = (body: string, type: string, extension: string) =>
      c.body(body, 200, { "content-type": type, "content-disposition": `attachment; filename="assent-audit.${extension}"` });
    if (format === "jsonl") return download(items.map((item) => JSON.stringify(item)).join("\n") + (items.length ? "\n" : ""), "application/x-ndjson", "jsonl");
    const lines = [csvColumns.join(","), ...items.map((item) => csvColumns.map((column) => csvCell(item[column])).join(","))];
    return download(lines.join("\r\n") + "\r\n", "text/csv; charset=utf-8", "csv");
  },
);

/** The admin token only: the bootstrap and the break-glass way back in. */
const adminTokenOnly: Access = { security: [{ adminToken: ["admin"] }] };

accountRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/bootstrap",
    operationId: "bootstrap",
    tags,
    ...adminTokenOnly,
    summary: "Make the first owner, or mail an owner a new sign-in link (admin token only)",
    description:
      "On a deployment without members: makes the organization (moving every project into it) and its first owner " +
      "with this address. Later: for an owner's address, a new sign-in link (the way back in when every owner is " +
      "locked out). Either way the link is mailed and answered. Each use after the first owner exists is a " +
      "break-glass use: audited, and it raises `ops.alert` (docs/security.md#the-admin-token-break-glass). `npm start` calls it.",
    request: { body: jsonBody(Bootstrap) },
    responses: { 201: jsonResponse(BootstrapResult, "The owner and their sign-in link."), ...problems },
  }),
  async (c) => {
    const { email, name } = c.req.valid("json");
    const organizationId = await ensureOrganization(c);
    const createdId = await createFirstOwner(c, organizationId, email, name);
    const owner = (await listMembers(c, organizationId)).find((member) => member.email === email.toLowerCase() && member.role === "owner");
    if (!owner) throw new ApiError(404, "not_found", "No owner of the organization has that address.");
    const signInUrl = await mailSignInLink(c, { id: owner.id, email: owner.email, organizationId }, "sign-in");
    return c.json({ organizationId, memberId: owner.id, signInUrl, created: createdId !== null }, 201);
  },
);

accountRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/organizations",
    operationId: "createOrganization",
    tags,
    ...adminTokenOnly,
    summary: "Make another organization and invite its owner (admin token only)",
    description:
      "For a deployment serving several organizations (an agency's clients): each sees only its own projects, members " +
      "and audit trail. The owner is mailed an invitation (7 days). A break-glass use like every other.",
    request: { body: jsonBody(NewOrganization) },
    responses: { 201: jsonResponse(OrganizationResult, "The organization and its owner."), ...problems, ...conflictProblem },
  }),
  async (c) => {
    const { name, ownerEmail } = c.req.valid("json");
    return c.json(await createOrganization(c, name, ownerEmail), 201);
  },
);

ownSessionRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/sessions",
    operationId: "listOwnSessions",
    tags,
    ...access.session,
    summary: "The signed-in member's sessions",
    description: "Every session of the member still in force, this one marked `current`. A break-glass session lists none.",
    responses: { 200: jsonResponse(z.object({ items: z.array(SessionInfo) }), "The sessions."), ...problems },
  }),
  async (c) => {
    const memberId = operatorOf(c).memberId;
    return c.json({ items: memberId === null ? [] : await sessionsOf(c, memberId) }, 200);
  },
);

ownSessionRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/sessions/{sessionId}",
    operationId: "endOwnSession",
    tags,
    ...access.session,
    summary: "End one of the signed-in member's sessions",
    request: { params: SessionParams },
    responses: { 204: { description: "Ended." }, ...problems },
  }),
  async (c) => {
    const memberId = operatorOf(c).memberId;
    if (memberId === null) throw new ApiError(404, "not_found", "Session not found.");
    await endSessions(c, memberId, c.req.valid("param").sessionId);
    return c.body(null, 204);
  },
);

ownSessionRoutes.route("/", apiTokenRoutes);
ownSessionRoutes.route("/", passkeyRoutes);
