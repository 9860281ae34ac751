import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { access } from "../auth/scopes";
import { identities } from "../identities/table";
import { getDb } from "../lib/db";
import { notFound } from "../lib/errors";
import { ProjectParams } from "../lib/params";
import { createRouter, defineRoute } from "../auth/router";
import { jsonResponse, problems } from "../lib/schemas";
import { projects } from "../projects/table";
import { eraseIdentity, writerOf, type Writer } from "../requests/record";
import { ledgerOf } from "./ledger";

/** Erases again every identity of the project whose salted hash is in the erasure ledger; returns their ids. */
async function reapplyErasures(writer: Writer, projectId: string) {
  const ledger = await ledgerOf(writer.env, projectId);
  const reapplied: string[] = [];
  if (ledger.entries > 0) {
    const rows = await getDb(writer.db).select({ id: identities.id }).from(identities).where(eq(identities.projectId, projectId));
    for (const { id } of rows) {
      if ((await ledger.holds(id)) && (await eraseIdentity(writer, id))) reapplied.push(id);
    }
  }
  return { ledgerEntries: ledger.entries, reapplied };
}

/** The erasure ledger's replay, mounted at `/admin/v1/projects/{project_id}/erasures`. */
export const ledgerRoutes = createRouter();

ledgerRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/reapply",
    operationId: "reapplyErasures",
    tags: ["Admin"],
    ...access.admin,
    summary: "Re-apply the erasure ledger after a database restore",
    description:
      "Deletes again every identity of the project whose salted hash the erasure ledger (KV) holds: identities that " +
      "a D1 restore brought back. Each goes through the normal identity deletion (event, log entry). `npm run reapply-erasures`.",
    request: { params: ProjectParams },
    responses: {
      200: jsonResponse(z.object({ ledgerEntries: z.number().int(), reapplied: z.array(z.string()) }), "What was erased again."),
      ...problems,
    },
  }),
  async (c) => {
    const { project_id: projectId } = c.req.valid("param");
    const [project] = await getDb(c.var.db).select({ id: projects.id }).from(projects).where(eq(projects.id, projectId));
    if (!project) throw notFound("Project");
    const caller = { projectId, clientId: "erasure-ledger", clientType: "backend" as const, scopes: [] };
    return c.json(await reapplyErasures(writerOf(c, caller), projectId), 200);
  },
);
