import { access } from "../auth/scopes";
import { z } from "@hono/zod-openapi";
import { and, asc, eq, gt, gte, lt, sql } from "drizzle-orm";
import { getDb } from "../lib/db";
import { createRouter, defineRoute } from "../auth/router";
import { problems } from "../lib/schemas";
import { toRecord } from "../requests/queries";
import { requests } from "../requests/table";
import { logEntries } from "./table";
import { ProjectParams } from "../lib/params";

/** The project-wide audit trail for a period, streamed: for auditors and for archiving outside Assent. */
export const auditRoutes = createRouter();


const exportPage = 500;

auditRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "exportAuditTrail",
    ...access.project("audit:read"),
    tags: ["Proof of consent"],
    summary: "Project-wide audit trail as NDJSON, for a time range (backend clients only: scope `audit:read`)",
    description:
      "One JSON object per line, in log order: each log entry written in [`from`, `to`) with its leaf index, entry hash " +
      "and payload, and the request it names as it stands now (with its latest receipt). Streamed page by page, so " +
      "any range can be exported. Erased subjects appear as hashes only.",
    request: {
      params: ProjectParams,
      query: z.object({ from: z.iso.datetime().openapi({ example: "2026-11-01T00:00:00Z" }), to: z.iso.datetime().openapi({ example: "2026-12-01T00:00:00Z" }) }),
    },
    responses: {
      200: { description: "`application/x-ndjson`: one log entry (with the record it names) per line." },
      ...problems,
    },
  }),
  async (c) => {
    const caller = c.get("caller");
    const { from, to } = c.req.valid("query");
    const db = getDb(c.var.db);
    const projectId = caller.projectId;
    const [{ before }] = await db
      .select({ before: sql<number>`count(*)` })
      .from(logEntries)
      .where(and(eq(logEntries.projectId, projectId), lt(logEntries.created, new Date(from).toISOString())));
    const encoder = new TextEncoder();
    let afterSeq = 0;
    let index = before;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const rows = await db
          .select({ seq: logEntries.seq, entryHash: logEntries.entryHash, payload: logEntries.payload, created: logEntries.created, record: requests })
          .from(logEntries)
          .leftJoin(requests, and(eq(requests.projectId, logEntries.projectId), eq(requests.id, logEntries.requestId)))
          .where(
            and(
              eq(logEntries.projectId, projectId),
              gte(logEntries.created, new Date(from).toISOString()),
              lt(logEntries.created, new Date(to).toISOString()),
              gt(logEntries.seq, afterSeq),
            ),
          )
          .orderBy(asc(logEntries.seq))
          .limit(exportPage);
        const lines = rows.map((row) =>
          JSON.stringify({ index: index++, entryHash: row.entryHash, created: row.created, payload: row.payload ?? null, record: row.record ? toRecord(row.record) : null }),
        );
        if (lines.length) controller.enqueue(encoder.encode(`${lines.join("\n")}\n`));
        afterSeq = rows.at(-1)?.seq ?? afterSeq;
        if (rows.length < exportPage) controller.close();
      },
    });
    return c.body(stream, 200, { "content-type": "application/x-ndjson", "cache-control": "no-store" });
  },
);
