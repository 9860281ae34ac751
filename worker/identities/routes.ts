import { BrowserToken, identityTokenFor } from "../auth/browser-tokens";
import { access, clientKinds } from "../auth/scopes";
import { z } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import { atomically, getDb, isConstraintError } from "../lib/db";
import { ApiError, conflict, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { createRouter, defineRoute } from "../auth/router";
import { conflictProblem, jsonBody, jsonResponse, problems } from "../lib/schemas";
import { acceptedRevisions, createdResponse, IfMatch, nextRevision, notModified, preconditionFailed, preconditionProblem, revisionMatches, tagged, taggedResponse } from "../lib/preconditions";
import { now } from "../lib/time";
import { identityPrivacyData } from "../requests/queries";
import { AccessRecord, ErasureRecord, ObjectionRecord, PermissionRecord, PermissionState } from "../requests/schemas";
import { Iso27560Export, iso27560Records } from "../proof/iso27560";
import { eraseIdentity, writerOf } from "../requests/record";
import { aliasRows, findIdentity, identityNamedBy, toIdentity } from "./queries";
import { normalizedColumn } from "./normalise";
import { ProjectParams } from "../lib/params";
import { Identity, IdentityInput, IdentityParams, IdentityUpdate } from "./schemas";
import { aliases, identities } from "./table";

export const identityRoutes = createRouter();

const tags = ["Identities"];

/** Maps the unique indexes of identities and aliases to 409s; anything else is rethrown. */
function uniquenessConflict(error: unknown): never {
  if (isConstraintError(error, "UNIQUE") || isConstraintError(error, "PRIMARY KEY")) {
    const text = String((error as Error).message) + String((error as { cause?: Error }).cause?.message ?? "");
    if (text.includes("aliases.") || text.includes("aliases_match_idx")) throw conflict("alias_taken", "An alias is already held by another identity of this project.");
    if (text.includes("identities.reference_id")) throw conflict("reference_id_taken", "Another identity of this project has this referenceId.");
  }
  throw error;
}

identityRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/",
    operationId: "createIdentity",
    ...access.project("identities:create"),
    tags,
    summary: "Create an identity",
    description:
      "Store the returned `identityId` and use it in later calls. An alias names one subject within a project: a second " +
      "identity claiming it gets 409 `alias_taken`, so one data subject never becomes two. A public client (web, " +
      "ios, android) creates anonymous identities only (aliases or referenceId: 403 `insufficient_scope`, since its " +
      "secret is not secret and 409s would reveal who is stored) and receives an identity-scoped `token` for it.",
    request: { params: ProjectParams, body: jsonBody(IdentityInput) },
    responses: {
      201: createdResponse(
        Identity.extend({ token: BrowserToken.optional().openapi({ description: "Public clients only: a token scoped to this identity." }) }),
        "The identity.",
      ),
      ...problems,
      ...conflictProblem,
    },
  }),
  async (c) => {
    const caller = c.get("caller");
    const { projectId } = caller;
    const input = c.req.valid("json");
    const isPublic = clientKinds[caller.clientType] === "public";
    if (isPublic && (input.aliases.length > 0 || input.referenceId !== undefined)) {
      throw new ApiError(403, "insufficient_scope", "Public clients create anonymous identities only: aliases and referenceId need a backend client.");
    }
    const stamp = now();
    const row = { id: newId("idn"), projectId, referenceId: input.referenceId ?? null, created: stamp, updated: stamp };
    const db = getDb(c.var.db);
    const aliasValues = aliasRows(projectId, row.id, input.aliases);
    try {
      await db.batch([db.insert(identities).values(row), ...aliasValues.map((a) => db.insert(aliases).values(a))]);
    } catch (error) {
      uniquenessConflict(error);
    }
    const identity = toIdentity(row, input.aliases);
    tagged(c, 1);
    c.header("Location", `/privacy/v2/projects/${projectId}/identities/${row.id}`);
    return c.json(isPublic ? { ...identity, token: await identityTokenFor(c.env, c.var.databases, caller, row.id) } : identity, 201);
  },
);

identityRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/aliases/{alias}",
    operationId: "findIdentityByAlias",
    ...access.project("identities:read"),
    tags,
    summary: "Find an identity by alias or referenceId",
    description:
      "`{alias}` is `{type}:{identifier}` URL-encoded (`urn%3Asvc%3Anational-id%3A19121212-1212`), matched exactly; a value " +
      "without a URN type is matched against `referenceId`. Meant for occasional use, not before every call.",
    request: { params: ProjectParams.extend({ alias: z.string().min(1).max(512) }) },
    responses: { 200: taggedResponse(Identity, "The identity."), ...notModified, ...problems },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const found = await findIdentity(c.var.db, projectId, identityNamedBy(c.req.valid("param").alias));
    if (!found) throw notFound("Identity");
    return tagged(c, found.revision) ?? c.json(found.identity, 200);
  },
);

identityRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/{identityId}",
    operationId: "getIdentity",
    ...access.project("identities:read", { in: "path", name: "identityId" }),
    tags,
    summary: "Read an identity",
    request: { params: IdentityParams },
    responses: { 200: taggedResponse(Identity, "The identity."), ...notModified, ...problems },
  }),
  async (c) => {
    const found = await findIdentity(c.var.db, c.get("caller").projectId, c.req.valid("param").identityId);
    if (!found) throw notFound("Identity");
    return tagged(c, found.revision) ?? c.json(found.identity, 200);
  },
);

identityRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/{identityId}",
    operationId: "updateIdentity",
    ...access.project("identities:write"),
    tags,
    summary: "Update an identity's referenceId and aliases",
    description: "Fields given replace the stored ones (`aliases` replaces the whole list); fields omitted stay.",
    request: { params: IdentityParams, headers: IfMatch, body: jsonBody(IdentityUpdate) },
    responses: { 200: taggedResponse(Identity, "The identity."), ...problems, ...conflictProblem, ...preconditionProblem },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const { identityId } = c.req.valid("param");
    const input = c.req.valid("json");
    const db = getDb(c.var.db);
    const accepted = acceptedRevisions(c);
    // The identity as the write may find it: this project's, at a revision If-Match accepts (any without one).
    const scope = and(eq(identities.projectId, projectId), eq(identities.id, identityId), revisionMatches(identities.revision, accepted));
    const changes = {
      updated: now(),
      revision: nextRevision(identities.revision),
      ...(input.referenceId !== undefined ? { referenceId: input.referenceId } : {}),
    };
    const aliasScope = and(eq(aliases.projectId, projectId), eq(aliases.identityId, identityId), sql`EXISTS (SELECT 1 FROM ${identities} WHERE ${scope})`);
    let results: D1Result[] = [];
    try {
      // The identity's row changes last, so the alias statements before it still see the revision If-Match named.
      results = await atomically(c.var.db, [
        ...(input.aliases
          ? [
              db.delete(aliases).where(aliasScope),
              // Inserted only if the identity is this project's: the foreign key alone would accept another
              // project's identity id, and the batch would store aliases under a 404.
              ...input.aliases.map((a) =>
                db.insert(aliases).select(
                  db
                    .select({
                      projectId: identities.projectId,
                      type: sql<string>`${a.type}`.as("type"),
                      identifier: sql<string>`${a.identifier}`.as("identifier"),
                      identityId: identities.id,
                      normalized: sql<string | null>`${normalizedColumn(a.type, a.identifier)}`.as("normalized"),
                    })
                    .from(identities)
                    .where(scope),
                ),
              ),
            ]
          : []),
        db.update(identities).set(changes).where(scope).returning({ id: identities.id }),
      ]);
    } catch (error) {
      uniquenessConflict(error);
    }
    const found = await findIdentity(c.var.db, projectId, identityId);
    if (results.at(-1)?.results.length === 0) throw found && accepted !== undefined ? preconditionFailed() : notFound("Identity");
    tagged(c, found!.revision);
    return c.json(found!.identity, 200);
  },
);

identityRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/{identityId}",
    operationId: "deleteIdentity",
    ...access.project("identities:write"),
    tags,
    summary: "Delete an identity and all its data",
    description:
      "Aliases, every privacy request and the permission state go in one atomic batch with an `identity.deleted` event " +
      "and a log entry; the identity's log entries keep their hashes and lose their payload (docs/proof.md#erasure).",
    request: { params: IdentityParams, headers: IfMatch },
    responses: { 204: { description: "Deleted." }, ...problems, ...preconditionProblem },
  }),
  async (c) => {
    const caller = c.get("caller");
    const { identityId } = c.req.valid("param");
    const accepted = acceptedRevisions(c);
    // A stale If-Match is refused before the erasure ledger records anything; the batch re-checks it atomically.
    const current = accepted && (await findIdentity(c.var.db, caller.projectId, identityId));
    if (current && !accepted!.includes(current.revision)) throw preconditionFailed();
    const erased = await eraseIdentity(writerOf(c), identityId, revisionMatches(identities.revision, accepted));
    if (!erased) throw accepted && (await findIdentity(c.var.db, caller.projectId, identityId)) ? preconditionFailed() : notFound("Identity");
    return c.body(null, 204);
  },
);

identityRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/{identityId}/data",
    operationId: "exportIdentityData",
    ...access.project("identities:export"),
    tags,
    summary: "All data held about an identity (GDPR Art. 15 export)",
    description:
      "The identity with its aliases, every request of the four families (oldest `requested` first, withdrawn ones " +
      "included) and the permission state. With `format=iso27560`: the identity's consent records (permissions and " +
      "objections) in the ISO/IEC TS 27560:2023 structure with W3C DPV terms, each with its history and receipt.",
    request: {
      params: IdentityParams,
      query: z.object({ format: z.enum(["json", "iso27560"]).default("json").openapi({ description: "`iso27560`: consent records per ISO/IEC TS 27560." }) }),
    },
    responses: {
      200: jsonResponse(
        z.union([
          z.object({
            identity: Identity,
            permissions: z.array(PermissionRecord),
            objections: z.array(ObjectionRecord),
            erasures: z.array(ErasureRecord),
            accesses: z.array(AccessRecord),
            permissionState: PermissionState,
          }),
          Iso27560Export,
        ]),
        "Everything held about the subject.",
      ),
      ...problems,
    },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const { identityId } = c.req.valid("param");
    const db = getDb(c.var.db);
    if (c.req.valid("query").format === "iso27560") {
      if (!(await findIdentity(c.var.db, projectId, identityId))) throw notFound("Identity");
      return c.json(await iso27560Records(db, projectId, identityId), 200);
    }
    const [found, privacy] = await Promise.all([findIdentity(c.var.db, projectId, identityId), identityPrivacyData(db, projectId, identityId)]);
    if (!found || !privacy) throw notFound("Identity");
    return c.json({ identity: found.identity, ...privacy }, 200);
  },
);
