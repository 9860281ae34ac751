import { z } from "@hono/zod-openapi";
import { inArray, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import { ApiError, notFound } from "./errors";
import { Problem } from "./schemas";

/**
 * Optimistic concurrency (RFC 9110 §8.8.3, §13.1.1). Each mutable resource's row has a `revision` that every write
 * sets to `revision + 1`; the strong ETag is `"r<revision>"`. A write with `If-Match` adds `revision IN (…)` to
 * its own UPDATE/DELETE (or, for a multi-statement batch, a first statement that aborts it), so the check and the
 * write are one atomic statement: there is no window between them. A guarded write that touched nothing is 412
 * when the resource still exists, else 404. Ids are never reused, so a revision number names one representation.
 */
export const etagOf = (revision: number) => `"r${revision}"`;

/** What `If-Match` accepts: undefined when absent or `*` (no condition); weak and foreign tags match nothing. */
export function acceptedRevisions(c: Context): number[] | undefined {
  const header = c.req.header("if-match");
  if (header === undefined) return undefined;
  const tags = header.split(",").map((tag) => tag.trim());
  if (tags.includes("*")) return undefined;
  return tags.flatMap((tag) => {
    const match = /^"r(\d{1,15})"$/.exec(tag);
    return match ? [Number(match[1])] : [];
  });
}

/** The WHERE condition that makes a write conditional on `If-Match`; undefined (no condition) without one. */
export const revisionMatches = (column: SQLiteColumn, accepted: number[] | undefined): SQL | undefined =>
  accepted === undefined ? undefined : accepted.length > 0 ? inArray(column, accepted) : sql`0`;

/** The SET value of every write. */
export const nextRevision = (column: SQLiteColumn) => sql<number>`${column} + 1`;

export const preconditionFailed = () =>
  new ApiError(
    412,
    "precondition_failed",
    "Someone else changed this resource since you read it (If-Match no longer matches its ETag); read it again and reapply your change.",
  );

/** After a guarded write touched no row: 412 if the resource is still there (its revision moved on), else 404. */
export async function refusal(accepted: number[] | undefined, stillThere: () => Promise<unknown>, what: string) {
  return accepted !== undefined && (await stillThere()) ? preconditionFailed() : notFound(what);
}

/**
 * Whether an `If-None-Match` header names `etag` (or is `*`): the client's copy is current and a GET answers 304
 * (RFC 9110 §13.1.2, weak comparison). False without the header.
 */
export function stillCurrent(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const tags = ifNoneMatch.split(",").map((tag) => tag.trim().replace(/^W\//, ""));
  return tags.includes("*") || tags.includes(etag);
}

/** Sets the ETag; answers 304 when `If-None-Match` already names it, else undefined. */
export function tagged(c: Context, revision: number): Response | undefined {
  const etag = etagOf(revision);
  c.header("ETag", etag);
  return stillCurrent(c.req.header("if-none-match"), etag) ? c.body(null, 304) : undefined;
}

/* OpenAPI declarations */

const etagHeader = z.string().openapi({ description: "Strong entity tag of this representation; send it back in `If-Match`.", example: '"r3"' });

/** A 200/201 JSON response carrying the representation's ETag (and, for 201, where it lives). */
export const taggedResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  headers: z.object({ ETag: etagHeader }),
  content: { "application/json": { schema } },
});

export const createdResponse = <T extends z.ZodType>(schema: T, description: string, tagged = true) => ({
  description,
  headers: z.object({
    Location: z.string().openapi({ description: "The created resource's URL (its GET).", example: "/privacy/v2/projects/prj_1/…" }),
    ...(tagged ? { ETag: etagHeader } : {}),
  }),
  content: { "application/json": { schema } },
});

export const notModified = { 304: { description: "Not modified: `If-None-Match` names the current ETag.", headers: z.object({ ETag: etagHeader }) } } as const;

export const preconditionProblem = {
  412: {
    description: "`If-Match` names an ETag that is no longer current: someone else changed the resource meanwhile.",
    content: { "application/problem+json": { schema: Problem } },
  },
} as const;

/** The optional `If-Match` request header of a conditional write. */
export const IfMatch = z.object({
  "if-match": z
    .string()
    .optional()
    .openapi({
      description:
        "The ETag read with the resource: the write applies only if it is still current (else 412 `precondition_failed`). " +
        "`*` or no header: unconditional. ETags are `\"r<revision>\"`, a revision every write of the resource bumps; the " +
        "comparison is part of the write itself (`UPDATE … WHERE revision IN (…)` in the same D1 statement or batch), so " +
        "no other write can land between the check and the change.",
      example: '"r3"',
    }),
});
