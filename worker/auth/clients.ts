import { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { sha256Hex, randomSecret } from "../lib/crypto";
import { getDb } from "../lib/db";
import { badRequest, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { createRouter, defineRoute } from "./router";
import { jsonBody, jsonResponse, problems, Timestamp } from "../lib/schemas";
import { ProjectParams } from "../lib/params";
import { acceptedRevisions, createdResponse, IfMatch, nextRevision, notModified, preconditionProblem, refusal, revisionMatches, tagged, taggedResponse } from "../lib/preconditions";
import { now } from "../lib/time";
import { projectExists } from "../projects/queries";
import { forgetClients } from "./clients-cache";
import { access, clientKinds, clientScopes, clientTypes, defaultScopes, scopesOfClient, type ClientScope, type ClientType } from "./scopes";
import { clients } from "./table";
import { forgetSmsClients } from "../hub/registrations";
import { defaultDatabase } from "../lib/databases";

export const clientRoutes = createRouter();

const Origin = z
  .string()
  .regex(
    // `*.localhost` is loopback by definition (RFC 6761 §6.3), as browsers treat it: a local site's own name.
    /^(https:\/\/[A-Za-z0-9.-]+|http:\/\/(([A-Za-z0-9-]+\.)*localhost|127\.0\.0\.1|\[::1\]))(:\d{1,5})?$/,
    "An https origin (scheme://host[:port], no path); http only for localhost, *.localhost and the loopback addresses.",
  )
  .openapi({ example: "https://www.example.com" });

const ScopeList = z
  .array(z.enum(clientScopes))
  .max(clientScopes.length)
  .nullable()
  .openapi({
    description:
      "An explicit scope list, narrower than the type's defaults (docs/security.md#scopes); null: the defaults. " +
      "A scope the type may not hold is 400 `scope_not_allowed`.",
  });

const Client = z
  .object({
    clientId: z.string(),
    projectId: z.string(),
    name: z.string(),
    type: z.enum(clientTypes),
    kind: z.enum(["confidential", "public"]).openapi({ description: "backend clients are confidential; web, ios and android public." }),
    allowedOrigins: z.array(Origin),
    scopes: z.array(z.enum(clientScopes)).openapi({ description: "What the client's tokens may do." }),
    explicitScopes: z.boolean().openapi({ description: "Whether `scopes` is an explicit list (else the type's defaults)." }),
    availableScopes: z.array(z.enum(clientScopes)).openapi({ description: "The type's defaults: the most `scopes` may hold." }),
    created: Timestamp,
    updated: Timestamp,
  })
  .openapi("Client");

const ClientWithSecret = Client.extend({
  clientSecret: z.string().openapi({ description: "Shown once; store it now. Only its hash is kept." }),
}).openapi("ClientWithSecret");

const ClientInput = z
  .strictObject({
    name: z.string().min(1).max(200),
    type: z.enum(clientTypes),
    allowedOrigins: z
      .array(Origin)
      .max(50)
      .default([])
      .openapi({ description: "Origins allowed to mint visitor tokens in the browser (web clients)." }),
    scopes: ScopeList.optional(),
  })
  .openapi("ClientInput");

const ClientUpdate = z
  .strictObject({
    name: z.string().min(1).max(200).optional(),
    allowedOrigins: z.array(Origin).max(50).optional(),
    scopes: ScopeList.optional(),
  })
  .openapi("ClientUpdate");

/** An explicit list may only narrow the type's defaults: a public client never gets a confidential client's rights. */
function checkedScopes(type: ClientType, scopes: ClientScope[] | null | undefined) {
  if (!scopes) return null;
  const beyond = scopes.filter((scope) => !defaultScopes[type].includes(scope));
  if (beyond.length > 0) {
    throw badRequest(
      "scope_not_allowed",
      `A ${type} client may hold only ${defaultScopes[type].join(", ")}.`,
      beyond.map((scope) => ({ path: "scopes", message: `${scope} is beyond a ${type} client's rights.`, code: "scope_not_allowed" })),
    );
  }
  return [...new Set(scopes)];
}

const ClientParams = ProjectParams.extend({ clientId: z.string() });

const clientWhere = (projectId: string, clientId: string) => and(eq(clients.projectId, projectId), eq(clients.id, clientId));

async function findClient(d1: D1Database, projectId: string, clientId: string) {
  const [row] = await getDb(d1).select().from(clients).where(clientWhere(projectId, clientId)).limit(1);
  return row;
}

const toClient = (row: typeof clients.$inferSelect): z.infer<typeof Client> => ({
  clientId: row.id,
  projectId: row.projectId,
  name: row.name,
  type: row.type,
  kind: clientKinds[row.type],
  allowedOrigins: row.allowedOrigins,
  scopes: [...scopesOfClient(row.type, row.scopes)],
  explicitScopes: row.scopes !== null,
  availableScopes: [...defaultScopes[row.type]],
  created: row.created,
  updated: row.updated,
});

const tags = ["Admin"];

clientRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/",
    operationId: "createClient",
    tags,
    ...access.operator("clients:manage"),
    summary: "Register a client",
    request: { params: ProjectParams, body: jsonBody(ClientInput) },
    responses: { 201: createdResponse(ClientWithSecret, "The client, with its secret shown once."), ...problems },
  }),
  async (c) => {
    const { project_id: projectId } = c.req.valid("param");
    const input = c.req.valid("json");
    if (!(await projectExists(c.var.db, projectId))) throw notFound("Project");
    const clientSecret = randomSecret("as");
    const stamp = now();
    const row = {
      id: newId("cli"),
      projectId,
      name: input.name,
      type: input.type,
      secretHash: await sha256Hex(clientSecret),
      notBefore: Math.floor(Date.now() / 1000),
      allowedOrigins: input.allowedOrigins,
      scopes: checkedScopes(input.type, input.scopes),
      created: stamp,
      updated: stamp,
      revision: 1,
    };
    await getDb(c.var.db).insert(clients).values(row);
    tagged(c, row.revision);
    c.header("Location", `/admin/v1/projects/${projectId}/clients/${row.id}`);
    return c.json({ ...toClient(row), clientSecret }, 201);
  },
);

clientRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/{clientId}",
    operationId: "getClient",
    tags,
    ...access.operator("clients:read"),
    summary: "Read a client (never its secret)",
    request: { params: ClientParams },
    responses: { 200: taggedResponse(Client, "The client."), ...notModified, ...problems },
  }),
  async (c) => {
    const { project_id: projectId, clientId } = c.req.valid("param");
    const row = await findClient(c.var.db, projectId, clientId);
    if (!row) throw notFound("Client");
    return tagged(c, row.revision) ?? c.json(toClient(row), 200);
  },
);

clientRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "listClients",
    tags,
    ...access.operator("clients:read"),
    summary: "List a project's clients (never their secrets)",
    request: { params: ProjectParams },
    responses: { 200: jsonResponse(z.object({ items: z.array(Client) }), "The clients."), ...problems },
  }),
  async (c) => {
    const { project_id: projectId } = c.req.valid("param");
    if (!(await projectExists(c.var.db, projectId))) throw notFound("Project");
    const rows = await getDb(c.var.db).select().from(clients).where(eq(clients.projectId, projectId)).orderBy(clients.id);
    return c.json({ items: rows.map(toClient) }, 200);
  },
);

clientRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/{clientId}",
    operationId: "updateClient",
    tags,
    ...access.operator("clients:manage"),
    summary: "Rename a client, change its allowed origins or narrow its scopes",
    request: { params: ClientParams, headers: IfMatch, body: jsonBody(ClientUpdate) },
    responses: { 200: taggedResponse(Client, "The client."), ...problems, ...preconditionProblem },
  }),
  async (c) => {
    const { project_id: projectId, clientId } = c.req.valid("param");
    const { scopes, ...input } = c.req.valid("json");
    const accepted = acceptedRevisions(c);
    const current = await findClient(c.var.db, projectId, clientId);
    if (!current) throw notFound("Client");
    const [row] = await getDb(c.var.db)
      .update(clients)
      .set({
        ...input,
        ...(scopes === undefined ? {} : { scopes: checkedScopes(current.type, scopes) }),
        updated: now(),
        revision: nextRevision(clients.revision),
      })
      .where(and(clientWhere(projectId, clientId), revisionMatches(clients.revision, accepted)))
      .returning();
    if (!row) throw await refusal(accepted, () => findClient(c.var.db, projectId, clientId), "Client");
    await forgetClients(c.env, [clientId]);
    tagged(c, row.revision);
    return c.json(toClient(row), 200);
  },
);

clientRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/{clientId}/secret",
    operationId: "regenerateClientSecret",
    tags,
    ...access.operator("clients:manage"),
    summary: "Regenerate a client's secret",
    description:
      "The old secret stops working at the token endpoint at once. Tokens minted under it are refused as soon as " +
      "the cached client record expires: at once in this location, within 60 s elsewhere (KV propagation).",
    request: { params: ClientParams },
    responses: { 200: jsonResponse(ClientWithSecret, "The client, with its new secret shown once."), ...problems },
  }),
  async (c) => {
    const { project_id: projectId, clientId } = c.req.valid("param");
    const clientSecret = randomSecret("as");
    const stamp = now();
    const [row] = await getDb(c.var.db)
      .update(clients)
      .set({ secretHash: await sha256Hex(clientSecret), notBefore: Math.floor(Date.now() / 1000), updated: stamp, revision: nextRevision(clients.revision) })
      .where(and(eq(clients.projectId, projectId), eq(clients.id, clientId)))
      .returning();
    if (!row) throw notFound("Client");
    await forgetClients(c.env, [clientId]);
    return c.json({ ...toClient(row), clientSecret }, 200);
  },
);

clientRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/{clientId}",
    operationId: "deleteClient",
    tags,
    ...access.operator("clients:manage"),
    summary: "Delete a client",
    request: { params: ClientParams, headers: IfMatch },
    responses: { 204: { description: "Deleted." }, ...problems, ...preconditionProblem },
  }),
  async (c) => {
    const { project_id: projectId, clientId } = c.req.valid("param");
    const accepted = acceptedRevisions(c);
    const deleted = await getDb(c.var.db)
      .delete(clients)
      .where(and(clientWhere(projectId, clientId), revisionMatches(clients.revision, accepted)))
      .returning({ id: clients.id });
    if (deleted.length === 0) throw await refusal(accepted, () => findClient(c.var.db, projectId, clientId), "Client");
    await forgetClients(c.env, [clientId]);
    await forgetSmsClients(c.var.databases.named(defaultDatabase), [clientId]);
    return c.body(null, 204);
  },
);
