// What the Worker keeps in KV, observed rather than read from the code: the flows that touch KV run through the
// Worker's fetch handler, then the namespace is listed. Every key must start with a prefix classified in
// worker/lib/kv.ts (none of them personal data), and no value may hold the flows' personal data. test/api/setup.ts
// checks the same after every test file of the suites.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { kvPrefixes, prefixOf } from "../../worker/lib/kv";
import { admin, adminToken, call, newTenant, ok, origin } from "./helpers";
import { allKvKeys } from "./kv-listing";

const unique = () => crypto.randomUUID().replace(/-/g, "").slice(0, 10);

/** The flows that reach KV: token checks, an erasure, a portal session, a billing lookup. Returns what they planted. */
async function driveFlows() {
  const t = await newTenant();
  const email = `kv-${unique()}@example.org`;
  const phone = `+4673${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
  const referenceId = `customer-${unique()}`;
  const identity = ok(
    await t.api("POST", "/identities", { referenceId, aliases: [{ type: "urn:svc:email", identifier: email }, { type: "urn:svc:phone", identifier: phone }] }),
    201,
  );
  expect((await t.api("DELETE", `/identities/${identity.identityId}`)).status).toBe(204);
  expect((await call("POST", "/portal/api/session", { body: { adminToken }, headers: { origin } })).status).toBe(201);
  const billingAccount = `8${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  const displayName = `Mobile ${phone}`;
  expect((await admin("PUT", `/billing-accounts/${billingAccount}`, { tscid: "T-1", assets: [{ id: "a", display_name: displayName }] })).status).toBe(201);
  expect((await call("GET", `/v1/customerLookup/servicehub/${billingAccount}`, { token: t.token })).status).toBe(200);
  return [email, phone, referenceId, billingAccount, displayName];
}

describe("KV key prefixes", () => {
  it("every key the flows write starts with a classified prefix, and each classified prefix is written", async () => {
    await driveFlows();
    const keys = await allKvKeys(env.KV);
    expect(keys.filter((key) => prefixOf(key) === undefined)).toEqual([]);
    expect(new Set(keys.map(prefixOf))).toEqual(new Set(Object.keys(kvPrefixes)));
    for (const [prefix, { holds, personalData }] of Object.entries(kvPrefixes)) {
      expect(personalData, prefix).toBe(false);
      expect(holds.length, prefix).toBeGreaterThan(20);
    }
  });

  it("no key or value holds the personal data the flows carried", async () => {
    const planted = await driveFlows();
    const stored = await Promise.all((await allKvKeys(env.KV)).map(async (key) => `${key} ${(await env.KV.get(key)) ?? ""}`));
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.filter((entry) => planted.some((value) => entry.includes(value)))).toEqual([]);
  });
});
