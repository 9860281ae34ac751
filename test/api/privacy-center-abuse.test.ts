// The privacy center's abuse limits at their production values (wrangler.toml, which vitest.config.ts passes to this
// suite unchanged): 5 attempts per code, 3 code requests and 10 verifications a minute per address, 20 calls a minute
// per client address;
// and no enumeration: asking for a code answers the same whether or not the address names anyone.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectProblem, ok, problemOf, type Reply } from "./helpers";
import { center, centerTenant, codeRows, emailedCode, freshAddress, uniqueEmail } from "./privacy-center-helpers";

function expectLimited(reply: Reply, policy: string, limit: number) {
  expectProblem(reply, 429, "rate_limited");
  expect(reply.headers.get("ratelimit-policy")).toBe(`"${policy}";q=${limit};w=60`);
  expect(reply.headers.get("retry-after")).toBe("60");
}

describe("abuse limits at production values", () => {
  it("states the production values", () => {
    expect([env.RATE_LIMIT_PRIVACY_CENTER_PER_IP, env.RATE_LIMIT_PRIVACY_CENTER_PER_ALIAS, env.RATE_LIMIT_PRIVACY_CENTER_VERIFICATIONS_PER_ALIAS]).toEqual([
      "20",
      "3",
      "10",
    ]);
  });

  it("allows 5 attempts per code, then refuses even the right one", async () => {
    const tenant = await centerTenant();
    const address = uniqueEmail();
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address } }), 202);
    const code = await emailedCode(tenant.projectId, address);
    const wrong = code === "123456" ? "654321" : "123456";
    for (let left = 4; left >= 0; left--) {
      const reply = await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address, code: wrong } });
      expectProblem(reply, 400, "invalid_code");
      expect(problemOf(reply).attemptsLeft).toBe(left);
    }
    expectProblem(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address, code } }), 429, "code_attempts_exhausted");
    // A new code works again (and replaces the old one).
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address } }), 202);
    const fresh = await emailedCode(tenant.projectId, address, 1);
    ok(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address, code: fresh } }), 201);
  });

  it("limits code requests to 3 a minute per address, whatever the client address", async () => {
    const tenant = await centerTenant();
    const address = uniqueEmail();
    for (let i = 0; i < 3; i++) ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address } }), 202);
    expectLimited(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address } }), "privacy-center-alias", 3);
    // Another address is not held up.
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address: uniqueEmail() } }), 202);
  });

  it("limits verifications to 10 a minute per address, whatever the client address, apart from code requests", async () => {
    const tenant = await centerTenant();
    const address = uniqueEmail();
    // Guesses spread over many client addresses and codes still count against the one address they try.
    for (let i = 0; i < 10; i++) {
      expectProblem(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address, code: "123456" } }), 400, "invalid_code");
    }
    expectLimited(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address, code: "123456" } }), "privacy-center-verifications-alias", 10);
    // Another address is not held up, and the address may still ask for a code (its own limit).
    expectProblem(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address: uniqueEmail(), code: "123456" } }), 400, "invalid_code");
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address } }), 202);
  });

  it("limits one client address to 20 calls a minute, codes and verifications together", async () => {
    const tenant = await centerTenant();
    const ip = freshAddress();
    for (let i = 0; i < 10; i++) ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address: uniqueEmail() }, ip }), 202);
    for (let i = 0; i < 10; i++) {
      expectProblem(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address: uniqueEmail(), code: "123456" }, ip }), 400, "invalid_code");
    }
    expectLimited(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address: uniqueEmail() }, ip }), "privacy-center-ip", 20);
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address: uniqueEmail() } }), 202);
  });
});

describe("no enumeration", () => {
  /** Everything about an answer but what differs between any two calls (the date, the D1 bookmark). */
  // What differs on every answer by design (the time, the D1 bookmark, the request's own id) is left out.
  const perAnswer = ["date", "assent-bookmark", "x-request-id"];
  const shape = (reply: Reply) => ({
    status: reply.status,
    body: reply.body,
    headers: [...reply.headers].filter(([name]) => !perAnswer.includes(name)),
  });

  it("answers a code request the same, and stores the same, whether or not the address names anyone", async () => {
    const tenant = await centerTenant();
    const known = uniqueEmail("known");
    ok(await tenant.api("POST", "/identities", { aliases: [{ type: "urn:svc:email", identifier: known }] }), 201);
    const unknown = uniqueEmail("unknown");
    const answers = [];
    for (const address of [known, unknown]) answers.push(shape(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address } })));
    expect(answers[0]).toEqual(answers[1]);
    // Both get a code, and the rows kept for them differ only in their random and per-address values.
    await emailedCode(tenant.projectId, known);
    await emailedCode(tenant.projectId, unknown);
    const rows = await codeRows(tenant.projectId);
    expect(rows).toHaveLength(2);
    const fixed = (row: Record<string, unknown>) => ({ channel: row.channel, attempts: row.attempts, spent: row.spent, lifetime: Date.parse(row.expires as string) - Date.parse(row.created as string) });
    expect(fixed(rows[0])).toEqual(fixed(rows[1]));
  });

  it("refuses a wrong code the same for an address that names someone and one that does not", async () => {
    const tenant = await centerTenant();
    const known = uniqueEmail("known");
    ok(await tenant.api("POST", "/identities", { aliases: [{ type: "urn:svc:email", identifier: known }] }), 201);
    const answers = [];
    for (const address of [known, uniqueEmail("unknown")]) {
      ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address } }), 202);
      const code = await emailedCode(tenant.projectId, address);
      answers.push(shape(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address, code: code === "000000" ? "000001" : "000000" } })));
    }
    expect(answers[0]).toEqual(answers[1]);
  });
});
