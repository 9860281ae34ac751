import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, expectProblem, newTenant } from "./helpers";
import { fetchWithSettings, providerLog } from "./hub-helpers";

// The billing lookup reading through to the operator's billing system (a fake in test/api/sms-provider-fakes.js),
// with its answers kept in D1 for a while, 502/504 on upstream failure and no answer served past its age.

const upstream = { BILLING_UPSTREAM_URL: "https://billing.fakes.test/accounts", BILLING_UPSTREAM_SECRET: "billing-secret", BILLING_UPSTREAM_TIMEOUT_MS: "1000" };

const lookup = async (token: string, id: string, settings = upstream) =>
  fetchWithSettings(
    settings,
    new Request(`http://assent.test/v1/customerLookup/servicehub/${id}`, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } }),
  );

describe("billing lookup with an upstream", () => {
  it("reads through to the billing system with its secret and keeps the answer in D1", async () => {
    const { token } = await newTenant();
    const id = `acct-${crypto.randomUUID()}`;
    const first = await lookup(token, id);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ tscid: `C-${id}`, assets: [{ id: "a1", display_name: "Phone" }] });
    expect((await lookup(token, id)).body).toEqual(first.body);
    const calls = await providerLog(`billing-${id}`);
    expect(calls).toHaveLength(1); // the second answer was the one kept
    const kept = await env.DB.prepare("SELECT result, until FROM billing_lookups WHERE billing_account = ?").bind(id).first<{ result: string; until: string }>();
    expect(JSON.parse(kept!.result)).toEqual(first.body);
    expect(Date.parse(kept!.until) - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(Date.parse(kept!.until) - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    // An admin write to the account drops the kept answer, in the write's own batch.
    expect((await admin("PUT", `/billing-accounts/${id}`, { tscid: "from-d1", assets: [] })).status).toBe(201);
    expect(await env.DB.prepare("SELECT 1 FROM billing_lookups WHERE billing_account = ?").bind(id).first()).toBeNull();
    expect(calls[0]).toMatchObject({ method: "GET", path: `/accounts/${id}`, headers: { authorization: "Bearer billing-secret", accept: "application/json" } });
    // The D1 table is not consulted when an upstream is set.
    const local = `local-${id.slice(5, 20)}`;
    expect((await admin("PUT", `/billing-accounts/${local}`, { tscid: "from-d1", assets: [] })).status).toBe(201);
    expect((await lookup(token, local)).body).toMatchObject({ tscid: `C-${local}` });
  });

  it("answers 404 for an account the billing system does not know, and 502/504 when it fails", async () => {
    const { token } = await newTenant();
    expectProblem(await lookup(token, "missing"), 404, "not_found");
    expectProblem(await lookup(token, "broken"), 502, "upstream_failed");
    expectProblem(await lookup(token, "garbled"), 502, "upstream_failed");
    expectProblem(await lookup(token, "slow"), 504, "upstream_timeout");
    expectProblem(await lookup(token, "anything", { ...upstream, BILLING_UPSTREAM_SECRET: "wrong" }), 502, "upstream_failed");
  });

  it("never serves a cached entry past its documented age, even when the billing system is down", async () => {
    const { token } = await newTenant();
    // An answer kept 11 minutes ago that the cron has not deleted yet: too old to serve.
    const keep = (until: number) =>
      env.DB.prepare("INSERT OR REPLACE INTO billing_lookups (billing_account, result, until) VALUES ('broken', ?, ?)")
        .bind(JSON.stringify({ tscid: "OLD", assets: [] }), new Date(until).toISOString())
        .run();
    await keep(Date.now() - 60_000);
    expectProblem(await lookup(token, "broken"), 502, "upstream_failed");
    await keep(Date.now() + 60_000);
    expect((await lookup(token, "broken")).body).toEqual({ tscid: "OLD", assets: [] });
  });
});
