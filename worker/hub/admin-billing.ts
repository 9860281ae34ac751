import { access } from "../auth/scopes";
import { z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import { getDb } from "../lib/db";
import { badRequest, notFound, validationError } from "../lib/errors";
import { createRouter, defineRoute } from "../auth/router";
import { jsonBody, jsonResponse, problems } from "../lib/schemas";
import { createdResponse } from "../lib/preconditions";
import { now } from "../lib/time";
import { forgetLookups } from "./accounts";
import { BillingAccount, BillingAccountId, BillingAccountImportItem, BillingAccountInput } from "./schemas";
import { billingAccounts } from "./table";

/** The operator-loaded billing accounts (the lookup's source when no billing upstream is configured). */
export const billingAdminRoutes = createRouter();

const tags = ["Admin: hub"];
const deleted = { 204: { description: "Deleted." } };

// Billing accounts

const AccountParam = z.object({ billing_account: BillingAccountId });

const toAccount = (row: typeof billingAccounts.$inferSelect): z.infer<typeof BillingAccount> => ({
  billingAccount: row.id,
  tscid: row.tscid,
  customerCacheId: row.customerCacheId,
  assets: row.assets,
  updated: row.updated,
});

billingAdminRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/{billing_account}",
    operationId: "upsertBillingAccount",
    tags,
    ...access.admin,
    summary: "Create or replace a billing account",
    description: "Replaces the whole record and drops it from the lookup cache.",
    request: { params: AccountParam, body: jsonBody(BillingAccountInput) },
    responses: {
      200: jsonResponse(BillingAccount, "Replaced."),
      201: createdResponse(BillingAccount, "Created; `Location` is this URL.", false),
      ...problems,
    },
  }),
  async (c) => {
    const { billing_account: id } = c.req.valid("param");
    const input = c.req.valid("json");
    const db = getDb(c.var.db);
    const [existing] = await db.select({ id: billingAccounts.id }).from(billingAccounts).where(eq(billingAccounts.id, id)).limit(1);
    const row = { id, tscid: input.tscid, customerCacheId: input.customerCacheId ?? null, assets: input.assets, updated: now() };
    const { id: _, ...changes } = row;
    await db.batch([db.insert(billingAccounts).values(row).onConflictDoUpdate({ target: billingAccounts.id, set: changes }), forgetLookups(c.var.db, [id])]);
    if (!existing) c.header("Location", new URL(c.req.url).pathname);
    return c.json(toAccount(row), existing ? 200 : 201);
  },
);

billingAdminRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/{billing_account}",
    operationId: "getBillingAccount",
    tags,
    ...access.admin,
    summary: "Read a billing account (with its actual tscid)",
    request: { params: AccountParam },
    responses: { 200: jsonResponse(BillingAccount, "The account."), ...problems },
  }),
  async (c) => {
    const { billing_account: id } = c.req.valid("param");
    const [row] = await getDb(c.var.db).select().from(billingAccounts).where(eq(billingAccounts.id, id)).limit(1);
    if (!row) throw notFound("Billing account");
    return c.json(toAccount(row), 200);
  },
);

billingAdminRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/{billing_account}",
    operationId: "deleteBillingAccount",
    tags,
    ...access.admin,
    summary: "Delete a billing account",
    request: { params: AccountParam },
    responses: { ...deleted, ...problems },
  }),
  async (c) => {
    const { billing_account: id } = c.req.valid("param");
    const db = getDb(c.var.db);
    const [gone] = await db.batch([db.delete(billingAccounts).where(eq(billingAccounts.id, id)).returning({ id: billingAccounts.id }), forgetLookups(c.var.db, [id])]);
    if (gone.length === 0) throw notFound("Billing account");
    return c.body(null, 204);
  },
);

export const maxImportItems = 500;
/** Rows per INSERT: D1 binds at most 100 parameters per statement, and a row takes 5. */
const rowsPerInsert = 20;

const ImportItems = z
  .array(BillingAccountImportItem)
  .min(1)
  .max(maxImportItems)
  .refine((items) => new Set(items.map((i) => i.billingAccount)).size === items.length, "Each billingAccount may appear once.");

/** NDJSON: one JSON value per line; blank lines are skipped. */
function parseNdjson(text: string): unknown[] {
  const items: unknown[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    try {
      items.push(JSON.parse(line));
    } catch {
      throw badRequest("malformed_json", `Line ${index + 1} is not valid JSON.`, [
        { path: String(items.length), message: `Line ${index + 1} is not valid JSON.`, code: "malformed_json" },
      ]);
    }
  });
  return items;
}

// The import body is validated in the handler (it may be NDJSON), so its item schema is registered by hand.
billingAdminRoutes.openAPIRegistry.register("BillingAccountImportItem", BillingAccountImportItem);

billingAdminRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/import",
    operationId: "importBillingAccounts",
    tags,
    ...access.admin,
    summary: "Bulk import billing accounts (JSON array or NDJSON)",
    description:
      "Creates or replaces up to 500 accounts in one request, all or nothing (one D1 batch), and drops them from the " +
      "lookup cache. Send a JSON array as `application/json`, or one account per line as `application/x-ndjson` " +
      "(blank lines are skipped). Error paths start with the item's 0-based index (for NDJSON, among non-blank lines). " +
      "Split larger files into several requests (the body limit is 1 MB).",
    request: {
      body: {
        required: true,
        content: {
          "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/BillingAccountImportItem" } } },
          "application/x-ndjson": { schema: { type: "string", description: "One BillingAccountImportItem per line." } },
        },
      },
    },
    responses: { 200: jsonResponse(z.object({ imported: z.number().int() }), "Imported."), ...problems },
  }),
  async (c) => {
    const mediaType = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
    let raw: unknown;
    if (mediaType === "application/x-ndjson") raw = parseNdjson(await c.req.text());
    else if (c.req.bodyCache.json) raw = await c.req.json<unknown>();
    else throw badRequest("body_required", "Send the accounts as a JSON array or as NDJSON.");
    const parsed = ImportItems.safeParse(raw);
    if (!parsed.success) throw validationError(parsed.error);
    const stamp = now();
    const rows = parsed.data.map((item) => ({
      id: item.billingAccount,
      tscid: item.tscid,
      customerCacheId: item.customerCacheId ?? null,
      assets: item.assets,
      updated: stamp,
    }));
    const db = getDb(c.var.db);
    const upserts = [];
    for (let i = 0; i < rows.length; i += rowsPerInsert) {
      upserts.push(
        db
          .insert(billingAccounts)
          .values(rows.slice(i, i + rowsPerInsert))
          .onConflictDoUpdate({
            target: billingAccounts.id,
            set: {
              tscid: sql`excluded.tscid`,
              customerCacheId: sql`excluded.customer_cache_id`,
              assets: sql`excluded.assets`,
              updated: sql`excluded.updated`,
            },
          }),
      );
    }
    await db.batch([forgetLookups(c.var.db, rows.map((row) => row.id)), ...upserts]);
    return c.json({ imported: rows.length }, 200);
  },
);

