import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "../../worker/lib/db";
import { latestReceiptHash } from "../../worker/proof/log";

describe("the write path's proof reads", () => {
  it("find an identity's latest receipt with one index seek, however many entries have none (EXPLAIN QUERY PLAN)", async () => {
    const query = latestReceiptHash(getDb(env.DB), "prj_1", "idn_1").toSQL();
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).bind(...query.params).all<{ detail: string }>();
    const details = plan.results.map((r) => r.detail).join(" | ");
    expect(details).toContain("USING INDEX log_entries_identity_receipts_idx");
    expect(details).not.toContain("TEMP B-TREE");
  });
});
