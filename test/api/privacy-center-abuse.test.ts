// The privacy center's abuse limits at their production values (wrangler.toml, which vitest.config.ts passes to this
// suite unchanged): 5 attempts per code; per address and client address 3 code requests and 10 verifications a
// minute; per address, whoever asks, a ceiling of 10 and 30 and daily caps (10 codes, 20 wrong codes; 30 wrong codes
// per client address), past which a Turnstile challenge is needed (its test keys, siteverify answered by the stand-in
// in test/api/webhooks-receiver.js); 20 calls a minute per client address. Nobody can lock a person out of their own
// address (issue 37, findings 1 and 2). And no enumeration: asking for a code answers the same whether or not the
// address names anyone.
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { admin, expectProblem, inOneWindow, ok, problemOf, type Reply } from "./helpers";
import { center, centerTenant, centerWithSettings, codeRows, emailedCode, freshAddress, uniqueEmail } from "./privacy-center-helpers";

function expectLimited(reply: Reply, policy: string, limit: number) {
  expectProblem(reply, 429, "rate_limited");
  expect(reply.headers.get("ratelimit-policy")).toBe(`"${policy}";q=${limit};w=60`);
  expect(reply.headers.get("retry-after")).toBe("60");
}

/** The token Turnstile's test site keys hand the page. */
const passed = "XXXX.DUMMY.TOKEN.XXXX";

const wrongFor = (code: string) => (code === "123456" ? "654321" : "123456");

/** Everything mailed to `to`, newest first. */
const mailTo = async (projectId: string, to: string) =>
  (ok(await admin("GET", `/projects/${projectId}/email-outbox?to=${encodeURIComponent(to)}`)) as { items: { text: string }[] }).items;

describe("abuse limits at production values", () => {
  it("states the production values", () => {
    expect([
      env.RATE_LIMIT_PRIVACY_CENTER_PER_IP,
      env.RATE_LIMIT_PRIVACY_CENTER_PER_ALIAS_CLIENT,
      env.RATE_LIMIT_PRIVACY_CENTER_VERIFICATIONS_PER_ALIAS_CLIENT,
      env.RATE_LIMIT_PRIVACY_CENTER_PER_ALIAS,
      env.RATE_LIMIT_PRIVACY_CENTER_VERIFICATIONS_PER_ALIAS,
    ]).toEqual(["20", "3", "10", "10", "30"]);
    expect([env.DAILY_GUESSES_PER_ADDRESS, env.DAILY_GUESSES_PER_CLIENT, env.DAILY_CODES_PER_ADDRESS]).toEqual(["20", "30", "10"]);
  });

  it("allows 5 attempts per code, then refuses even the right one", async () => {
    const tenant = await centerTenant();
    const address = uniqueEmail();
    const ip = freshAddress();
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address }, ip }), 202);
    const code = await emailedCode(tenant.projectId, address);
    for (let left = 4; left >= 0; left--) {
      const reply = await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address, code: wrongFor(code) }, ip });
      expectProblem(reply, 400, "invalid_code");
      expect(problemOf(reply).attemptsLeft).toBe(left);
    }
    expectProblem(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address, code }, ip }), 429, "code_attempts_exhausted");
    // A new code works again (and replaces the old one).
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address }, ip }), 202);
    const fresh = await emailedCode(tenant.projectId, address, 1);
    ok(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address, code: fresh }, ip }), 201);
  });

  it("limits one client address to 20 calls a minute, codes and verifications together", inOneWindow(async () => {
    const tenant = await centerTenant();
    const ip = freshAddress();
    for (let i = 0; i < 10; i++) ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address: uniqueEmail() }, ip }), 202);
    for (let i = 0; i < 10; i++) {
      expectProblem(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address: uniqueEmail(), code: "123456" }, ip }), 400, "invalid_code");
    }
    expectLimited(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address: uniqueEmail() }, ip }), "privacy-center-ip", 20);
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address: uniqueEmail() } }), 202);
  }));
});

describe("nobody is locked out of their own address (finding 1)", () => {
  it("an asker hammering the address's codes neither holds up the person's request nor voids the code they hold", inOneWindow(async () => {
    const tenant = await centerTenant();
    const address = uniqueEmail();
    const person = freshAddress();
    const attacker = freshAddress();
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address }, ip: person }), 202);
    const code = await emailedCode(tenant.projectId, address);
    for (let i = 0; i < 3; i++) ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address }, ip: attacker }), 202);
    expectLimited(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address }, ip: attacker }), "privacy-center-alias-client", 3);
    // The person's code still works, and their own budget is whole.
    ok(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address, code }, ip: person }), 201);
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address }, ip: person }), 202);
  }));

  it("wrong codes from another client address neither use up the person's attempts nor hold up their verification", inOneWindow(async () => {
    const tenant = await centerTenant();
    const address = uniqueEmail();
    const person = freshAddress();
    const attacker = freshAddress();
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address }, ip: person }), 202);
    const code = await emailedCode(tenant.projectId, address);
    for (let i = 0; i < 10; i++) {
      expectProblem(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address, code: wrongFor(code) }, ip: attacker }), 400, "invalid_code");
    }
    expectLimited(
      await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address, code: wrongFor(code) }, ip: attacker }),
      "privacy-center-verifications-alias-client",
      10,
    );
    // The person types it on another network than they asked from: it still verifies.
    ok(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address, code }, ip: freshAddress() }), 201);
  }));

  it("hammered from many client addresses, the address needs a challenge, which the person passes", inOneWindow(async () => {
    const tenant = await centerTenant();
    const address = uniqueEmail();
    // Ten askers, each within its own budget: the address's ceiling and its daily codes are reached.
    for (let i = 0; i < 10; i++) ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address } }), 202);
    const refused = await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address } });
    expectProblem(refused, 403, "challenge_required");
    expect(problemOf(refused).challenge).toEqual({ provider: "turnstile", siteKey: "1x00000000000000000000AA" });
    const before = (await codeRows(tenant.projectId)).length;
    // The person solves the challenge: their code comes, and verifies (no one is guessing at it).
    const person = freshAddress();
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address, challenge: passed }, ip: person }), 202);
    expect(await codeRows(tenant.projectId)).toHaveLength(before + 1);
    const code = await emailedCode(tenant.projectId, address, 10);
    ok(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address, code }, ip: person }), 201);
  }));

  it("refuses a challenge Turnstile does not pass, and answers 429 where no Turnstile keys are set", async () => {
    const tenant = await centerTenant();
    const address = uniqueEmail();
    for (let i = 0; i < 10; i++) ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address } }), 202);
    const alwaysFails = { TURNSTILE_SECRET_KEY: "2x0000000000000000000000000000000AA" };
    const failed = await centerWithSettings(alwaysFails, tenant.projectId, "POST", "/codes", { body: { channel: "email", address, challenge: passed } });
    expectProblem(failed, 403, "challenge_failed");
    const spent = await centerWithSettings({ TURNSTILE_SECRET_KEY: "3x0000000000000000000000000000000AA" }, tenant.projectId, "POST", "/codes", {
      body: { channel: "email", address, challenge: passed },
    });
    expectProblem(spent, 403, "challenge_failed");
    const noKeys = await centerWithSettings({ TURNSTILE_SITE_KEY: undefined, TURNSTILE_SECRET_KEY: undefined }, tenant.projectId, "POST", "/codes", {
      body: { channel: "email", address },
    });
    expectProblem(noKeys, 429, "rate_limited");
    expect(await codeRows(tenant.projectId)).toHaveLength(10);
  });
});

describe("guesses are capped per day (finding 2)", () => {
  it("past 20 wrong codes a day on an address, it needs a challenge, and the person is told once by the channel itself", async () => {
    const tenant = await centerTenant();
    const address = uniqueEmail();
    for (const guesser of [freshAddress(), freshAddress()]) {
      for (let i = 0; i < 10; i++) {
        expectProblem(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address, code: "123456" }, ip: guesser }), 400, "invalid_code");
      }
    }
    expectProblem(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address, code: "123456" } }), 403, "challenge_required");
    expectProblem(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address, code: "123456", challenge: passed } }), 400, "invalid_code");
    const warned = await vi.waitFor(
      async () => {
        const items = await mailTo(tenant.projectId, address);
        expect(items).toHaveLength(1);
        return items[0].text;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(warned).toContain("Someone tried many wrong codes for this address");
    // The person still gets in, through the challenge.
    const person = freshAddress();
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address }, ip: person }), 202);
    const code = await emailedCode(tenant.projectId, address, 1);
    ok(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address, code, challenge: passed }, ip: person }), 201);
    expect(await mailTo(tenant.projectId, address)).toHaveLength(2);
  });

  it("past the daily wrong codes of one client address, whatever addresses it tries, that client needs a challenge", async () => {
    const tenant = await centerTenant();
    const headers = { "cf-connecting-ip": freshAddress() };
    const capped = { DAILY_GUESSES_PER_CLIENT: "3" };
    for (let i = 0; i < 3; i++) {
      const reply = await centerWithSettings(capped, tenant.projectId, "POST", "/sessions", { body: { channel: "email", address: uniqueEmail(), code: "123456" }, headers });
      expectProblem(reply, 400, "invalid_code");
    }
    const body = { channel: "email", address: uniqueEmail(), code: "123456" };
    expectProblem(await centerWithSettings(capped, tenant.projectId, "POST", "/sessions", { body, headers }), 403, "challenge_required");
    expectProblem(await centerWithSettings(capped, tenant.projectId, "POST", "/codes", { body: { channel: "email", address: uniqueEmail() }, headers }), 403, "challenge_required");
    // Another client address is not held up.
    expectProblem(await centerWithSettings(capped, tenant.projectId, "POST", "/sessions", { body }), 400, "invalid_code");
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
