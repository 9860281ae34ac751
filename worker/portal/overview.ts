import { access } from "../auth/scopes";
import { z } from "@hono/zod-openapi";
import { notFound } from "../lib/errors";
import { defineRoute } from "../auth/router";
import { jsonResponse, problems } from "../lib/schemas";
import { ProjectParams } from "../lib/params";
import { projectExists } from "../projects/queries";

const Day = z.string().openapi({ example: "2026-11-22", description: "A UTC calendar day." });
const StatusCounts = z.record(z.string(), z.number().int()).openapi({ example: { received: 2, completed: 5 } });

const Overview = z
  .object({
    projectId: z.string(),
    from: Day,
    to: Day,
    identities: z.object({
      total: z.number().int(),
      daily: z.array(z.object({ day: Day, created: z.number().int() })),
    }),
    purposes: z.array(
      z.object({
        purposeId: z.string(),
        referenceId: z.string(),
        name: z.string(),
        version: z.string(),
        current: z
          .object({ given: z.number().int(), denied: z.number().int() })
          .openapi({ description: "Identities whose permission state for the current version is approved / denied." }),
        daily: z
          .array(z.object({ day: Day, given: z.number().int(), denied: z.number().int() }))
          .openapi({ description: "Decisions of completed (not withdrawn) permission requests, by the UTC day they were requested." }),
      }),
    ),
    requests: z
      .object({ objection: StatusCounts, erasure: StatusCounts, access: StatusCounts })
      .openapi({ description: "Requests of each family by status, all time." }),
  })
  .openapi("PortalOverview");

export const overviewRoute = defineRoute({
  method: "get",
  path: "/",
  operationId: "getProjectOverview",
  ...access.operator("projects:read"),
  tags: ["Admin"],
  summary: "Counts for the portal's overview",
  description:
    "Identities (total and created per day) and consent decisions per purpose per day over the last `days` days " +
    "(UTC, zero-filled), the current permission state per purpose, and open work per request family. Read in one " +
    "D1 batch of aggregate queries.",
  request: {
    params: ProjectParams,
    query: z.strictObject({
      days: z
        .string()
        .regex(/^\d{1,3}$/, "A whole number of days, 1 to 366.")
        .default("30")
        .transform(Number)
        .pipe(z.number().int().min(1).max(366))
        .openapi({ type: "integer", example: 30, description: "How many days back, today included (default 30)." }),
    }),
  },
  responses: { 200: jsonResponse(Overview, "The aggregates."), ...problems },
});

type Row = Record<string, string | number | null>;

export async function readOverview(d1: D1Database, projectId: string, days: number): Promise<z.infer<typeof Overview>> {
  if (!(await projectExists(d1, projectId))) throw notFound("Project");
  const dayList: string[] = [];
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  for (let i = days - 1; i >= 0; i--) dayList.push(new Date(today - i * 86_400_000).toISOString().slice(0, 10));
  const from = dayList[0];
  const fromMs = Date.parse(`${from}T00:00:00Z`);

  const [total, identitiesDaily, decisions, current, purposeRows, requestRows] = await d1.batch<Row>([
    d1.prepare("SELECT count(*) AS n FROM identities WHERE project_id = ?").bind(projectId),
    d1
      .prepare(
        "SELECT substr(created, 1, 10) AS day, count(*) AS n FROM identities WHERE project_id = ? AND created >= ? GROUP BY day",
      )
      .bind(projectId, from),
    // What each completed (not withdrawn) permission said about each purpose, one row per purpose named.
    d1
      .prepare(
        `SELECT purpose_id, status, strftime('%Y-%m-%d', requested_at / 1000, 'unixepoch') AS day, count(*) AS n
         FROM request_purposes
         WHERE project_id = ? AND request_type = 'permission' AND counts = 1 AND requested_at >= ?
         GROUP BY purpose_id, status, day`,
      )
      .bind(projectId, fromMs),
    d1
      .prepare(
        `SELECT s.purpose_id, s.status, count(*) AS n FROM permission_states s
         JOIN purposes p ON p.id = s.purpose_id AND p.version = s.version
         WHERE s.project_id = ? GROUP BY s.purpose_id, s.status`,
      )
      .bind(projectId),
    d1
      .prepare(
        "SELECT id, reference_id, version, json_extract(content, '$.name') AS name FROM purposes WHERE project_id = ? AND deleted IS NULL ORDER BY id",
      )
      .bind(projectId),
    d1
      .prepare(
        "SELECT family, status, count(*) AS n FROM requests WHERE project_id = ? AND family IN ('objection', 'erasure', 'access') GROUP BY family, status",
      )
      .bind(projectId),
  ]);

  const createdByDay = new Map(identitiesDaily.results.map((r) => [r.day as string, Number(r.n)]));
  const requests = { objection: {}, erasure: {}, access: {} } as Record<"objection" | "erasure" | "access", Record<string, number>>;
  for (const r of requestRows.results) requests[r.family as keyof typeof requests][r.status as string] = Number(r.n);

  return {
    projectId,
    from,
    to: dayList[dayList.length - 1],
    identities: {
      total: Number(total.results[0]?.n ?? 0),
      daily: dayList.map((day) => ({ day, created: createdByDay.get(day) ?? 0 })),
    },
    purposes: purposeRows.results.map((p) => {
      const count = (rows: Row[], status: string, day?: string) =>
        Number(rows.find((r) => r.purpose_id === p.id && r.status === status && (day === undefined || r.day === day))?.n ?? 0);
      return {
        purposeId: p.id as string,
        referenceId: p.reference_id as string,
        name: (p.name as string | null) ?? (p.reference_id as string),
        version: p.version as string,
        current: { given: count(current.results, "approved"), denied: count(current.results, "denied") },
        daily: dayList.map((day) => ({
          day,
          given: count(decisions.results, "approved", day),
          denied: count(decisions.results, "denied", day),
        })),
      };
    }),
    requests,
  };
}
