import { describe, expect, it } from "vitest";
import { expectProblem, problemOf } from "./helpers";
import { callWithSettings, genericSms, messageWithTrail, outboxOf, providerLog, registeredTenant, smsSettings, uniqueAccount } from "./hub-helpers";

// Each adapter against a fake of its provider's documented HTTP contract (test/api/sms-provider-fakes.js): the request
// as the provider documents it for a GSM, a UCS-2 and a multi-part text, and the provider's answers mapped to outcomes.

const gsmText = "Your code is 123456 {ok} €";
const ucsText = "Cześć! Twój kod: 123456";
const longText = "Your order 123 has shipped and will arrive tomorrow between 9 and 12. ".repeat(4).trim(); // 283 GSM chars: 2 parts
const texts = [gsmText, ucsText, longText];

type Provider = {
  route: Record<string, unknown>;
  credentials: (account: string) => Record<string, unknown>;
  account: (base: string) => string;
};

const providers: Record<string, Provider> = {
  twilio: {
    route: { adapter: "twilio" },
    account: (base) => `AC${base}`,
    credentials: (account) => ({ accountSid: account, authToken: "good-token" }),
  },
  vonage: {
    route: { adapter: "vonage" },
    account: (base) => `key${base}`,
    credentials: (account) => ({ apiKey: account, apiSecret: "good-secret" }),
  },
  sinch: {
    route: { adapter: "sinch", options: { region: "eu" } },
    account: (base) => `plan${base}`,
    credentials: (account) => ({ servicePlanId: account, apiToken: "good-token" }),
  },
  elks46: {
    route: { adapter: "46elks" },
    account: (base) => `u${base}`,
    credentials: (account) => ({ username: account, password: "good-password" }),
  },
};

async function sendAll(name: string, provider: Provider, messages: string[], receiver = "+46701234567", credentialsOverride = {}) {
  const tenant = await registeredTenant();
  const account = provider.account(uniqueAccount(tenant.projectId));
  const settings = smsSettings({ [name]: provider.route }, { [name]: { ...provider.credentials(account), ...credentialsOverride } });
  for (const message of messages) {
    const reply = await callWithSettings(settings, "POST", "/v1/sms", { token: tenant.token, body: genericSms({ provider: name, message, receiver }) });
    expect(reply.status).toBe(200);
    expect(reply.body).toBeNull();
  }
  return { ...tenant, account, settings, rows: await outboxOf(tenant.projectId), log: await providerLog(account) };
}

const basic = (user: string, password: string) => `Basic ${btoa(`${user}:${password}`)}`;
const callback = (route: string) => expect.stringMatching(new RegExp(`^http://assent\\.test/callbacks/sms/${route}(\\?token=[A-Za-z0-9_-]{43})?$`));

describe("Twilio Messages API", () => {
  it("POSTs form-encoded To, From, Body and StatusCallback with Basic auth, and stores the message SID", async () => {
    const { rows, log, account } = await sendAll("twilio", providers.twilio, texts);
    expect(log).toHaveLength(3);
    log.forEach((request, i) => {
      expect(request).toMatchObject({ host: "api.twilio.com", method: "POST", path: `/2010-04-01/Accounts/${account}/Messages.json` });
      expect(request.headers.authorization).toBe(basic(account, "good-token"));
      expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
      // Twilio picks the encoding and splits long texts itself: the whole text travels as Body, UTF-8.
      // ValidityPeriod: the 24 h validity left, capped at Twilio's 36000 s.
      expect(request.form).toEqual({
        To: "+46701234567",
        From: "DemoShop",
        Body: texts[i],
        StatusCallback: "http://assent.test/callbacks/sms/twilio",
        ValidityPeriod: "36000",
      });
    });
    expect(rows.map((r) => [r.status, r.dcs, r.segments])).toEqual([
      ["accepted", "gsm", 1],
      ["accepted", "ucs", 1],
      ["accepted", "gsm", 2],
    ]);
    for (const row of rows) expect(row.providerRef).toMatch(/^SM[0-9a-f]{32}$/);
  });

  it("sends through a Messaging Service or with an API key when configured, to an edge's base URL", async () => {
    const tenant = await registeredTenant();
    const account = `AC${uniqueAccount(tenant.projectId)}`;
    const settings = smsSettings(
      { twilio: { adapter: "twilio", baseUrl: "https://api.dublin.ie1.twilio.com", options: { messagingServiceSid: "MG0123456789abcdef" } } },
      { twilio: { accountSid: account, authToken: "good-token", apiKeySid: "SK0123456789abcdef", apiKeySecret: "good-key-secret" } },
    );
    expect((await callWithSettings(settings, "POST", "/v1/sms", { token: tenant.token, body: genericSms({ provider: "twilio" }) })).status).toBe(200);
    const [request] = await providerLog(account);
    expect(request.host).toBe("api.dublin.ie1.twilio.com");
    expect(request.headers.authorization).toBe(basic("SK0123456789abcdef", "good-key-secret"));
    expect(request.form.MessagingServiceSid).toBe("MG0123456789abcdef");
    expect(request.form.From).toBeUndefined();
    expect((await outboxOf(tenant.projectId))[0].status).toBe("accepted");
  });
});

describe("Vonage SMS API", () => {
  it("POSTs api_key, api_secret, from, to without +, text, type unicode for UCS-2, client-ref and callback", async () => {
    const { rows, log, account } = await sendAll("vonage", providers.vonage, texts);
    expect(log).toHaveLength(3);
    log.forEach((request, i) => {
      expect(request).toMatchObject({ host: "rest.nexmo.com", method: "POST", path: "/sms/json" });
      expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
      expect(request.form).toEqual({
        api_key: account,
        api_secret: "good-secret",
        from: "DemoShop",
        to: "46701234567",
        text: texts[i],
        type: i === 1 ? "unicode" : "text",
        "client-ref": rows[i].id,
        ttl: expect.stringMatching(/^\d+$/),
        callback: expect.stringMatching(/^http:\/\/assent\.test\/callbacks\/sms\/vonage\?token=[A-Za-z0-9_-]{43}$/),
      });
    });
    // ttl: the validity left when it was handed off (24 h from writing), in milliseconds.
    log.forEach((request, i) => {
      const left = Date.parse(rows[i].expires) - Date.parse(rows[i].created) - Number(request.form.ttl);
      expect(left).toBeGreaterThanOrEqual(0);
      expect(left).toBeLessThan(60_000);
    });
    expect(rows.map((r) => r.status)).toEqual(["accepted", "accepted", "accepted"]);
  });
});

describe("Sinch SMS REST API", () => {
  it("POSTs a JSON batch to the region's host with the bearer token, per-recipient reports and our client reference", async () => {
    const { rows, log, account } = await sendAll("sinch", providers.sinch, texts);
    expect(log).toHaveLength(3);
    log.forEach((request, i) => {
      expect(request).toMatchObject({ host: "eu.sms.api.sinch.com", method: "POST", path: `/xms/v1/${account}/batches` });
      expect(request.headers.authorization).toBe("Bearer good-token");
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.json).toEqual({
        from: "DemoShop",
        to: ["+46701234567"],
        body: texts[i],
        delivery_report: "per_recipient",
        callback_url: callback("sinch"),
        client_reference: rows[i].id,
        expire_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      // expire_at: the end of the message's validity (24 h after it was written).
      expect(Math.abs(Date.parse(request.json.expire_at) - Date.parse(rows[i].expires))).toBeLessThan(60_000);
    });
    expect(rows.map((r) => r.status)).toEqual(["accepted", "accepted", "accepted"]);
    for (const row of rows) expect(row.providerRef).toMatch(/^01[0-9A-F]{24}$/);
  });
});

describe("46elks", () => {
  it("POSTs form-encoded from, to, message and whendelivered with Basic auth", async () => {
    const { rows, log, account } = await sendAll("elks", providers.elks46, texts);
    expect(log).toHaveLength(3);
    log.forEach((request, i) => {
      expect(request).toMatchObject({ host: "api.46elks.com", method: "POST", path: "/a1/sms" });
      expect(request.headers.authorization).toBe(basic(account, "good-password"));
      expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
      expect(request.form).toEqual({ from: "DemoShop", to: "+46701234567", message: texts[i], whendelivered: callback("elks") });
    });
    expect(rows.map((r) => r.status)).toEqual(["accepted", "accepted", "accepted"]);
  });
});

describe("each provider's answers", () => {
  // Receivers the fakes answer with the provider's own error: invalid number and no funds cannot succeed on retry.
  const expected: Record<string, Record<string, [string, string]>> = {
    twilio: { "+46700000400": ["failed", "21211"], "+46700000402": ["failed", "30036"], "+46700000429": ["retrying", "20429"], "+46700000500": ["retrying", "20500"] },
    vonage: { "+46700000400": ["failed", "3"], "+46700000402": ["failed", "9"], "+46700000429": ["retrying", "1"], "+46700000500": ["retrying", "5"] },
    sinch: {
      "+46700000400": ["failed", "syntax_invalid_parameter_format"],
      "+46700000402": ["failed", "forbidden"],
      "+46700000429": ["retrying", "too_many_requests"],
      "+46700000500": ["retrying", "service_unavailable"],
    },
    elks46: { "+46700000400": ["failed", "400"], "+46700000402": ["failed", "403"], "+46700000429": ["retrying", "429"], "+46700000500": ["retrying", "500"] },
  };

  for (const [name, provider] of Object.entries(providers)) {
    it(`maps ${name}'s errors: permanent ones settle as failed at once, transient ones retry`, async () => {
      const tenant = await registeredTenant();
      const account = provider.account(uniqueAccount(tenant.projectId));
      const settings = smsSettings({ [name]: provider.route }, { [name]: provider.credentials(account) });
      for (const receiver of Object.keys(expected[name])) {
        const reply = await callWithSettings(settings, "POST", "/v1/sms", { token: tenant.token, body: genericSms({ provider: name, receiver }) });
        expect(reply.status).toBe(200); // the spec's answer: accepted into the outbox
      }
      const rows = await outboxOf(tenant.projectId);
      expect(rows.map((r) => [r.receiver, r.status, r.errorCode])).toEqual(
        Object.entries(expected[name]).map(([receiver, [status, code]]) => [receiver, status, code]),
      );
      for (const row of rows) {
        expect(row.nextAttempt === null).toBe(row.status === "failed");
        expect(row.lastError).toEqual(expect.any(String));
      }
      const trail = (await messageWithTrail(rows[0].id)).trail;
      expect(trail.map((t: { status: string }) => t.status)).toEqual(["pending", "failed"]);
    });

    it(`treats ${name}'s refusal of the credentials as final`, async () => {
      const wrong = name === "twilio" ? { authToken: "wrong" } : name === "vonage" ? { apiSecret: "wrong" } : name === "sinch" ? { apiToken: "wrong" } : { password: "wrong" };
      const { rows } = await sendAll(name, provider, ["hello"], "+46701234567", wrong);
      expect(rows[0]).toMatchObject({ status: "failed", nextAttempt: null });
    });
  }
});

describe("choosing a route", () => {
  it("answers 400 naming the configured routes for an unknown name, and 503 for a malformed configuration", async () => {
    const { token } = await registeredTenant();
    const settings = smsSettings({ twilio: providers.twilio.route }, {});
    const reply = await callWithSettings(settings, "POST", "/v1/sms", { token, body: genericSms({ provider: "vonage" }) });
    expectProblem(reply, 400, "unknown_provider");
    expect(problemOf(reply).detail).toContain("configured: sms_hub, twilio");
    const broken = await callWithSettings({ SMS_ROUTES: "{not json" }, "POST", "/v1/sms", { token, body: genericSms() });
    expectProblem(broken, 503, "not_configured");
    const badFallback = await callWithSettings(smsSettings({ a: { adapter: "twilio", fallback: "nowhere" } }, {}), "POST", "/v1/sms", { token, body: genericSms() });
    expectProblem(badFallback, 503, "not_configured");
  });

  it("lists the routes without their secrets, and keeps messages of a route without credentials waiting", async () => {
    const { projectId, token } = await registeredTenant();
    const settings = smsSettings(
      { twilio: { adapter: "twilio", fallback: "vonage", validityHours: 2 }, vonage: { adapter: "vonage" } },
      { vonage: { apiKey: "key-listed", apiSecret: "very-secret-value" } },
    );
    const listed = await callWithSettings(settings, "GET", "/admin/v1/sms/routes", { token: "test-admin-token", body: undefined });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((r: { name: string }) => r.name)).toEqual(["sms_hub", "twilio", "vonage"]);
    expect(listed.body.items[1]).toMatchObject({
      adapter: "twilio",
      baseUrl: "https://api.twilio.com",
      fallback: "vonage",
      validityHours: 2,
      configured: false,
      problem: "No credentials for twilio in SMS_CREDENTIALS.",
      callbackUrl: "http://assent.test/callbacks/sms/twilio",
    });
    expect(listed.body.items[2]).toMatchObject({ configured: true, problem: null });
    expect(JSON.stringify(listed.body)).not.toMatch(/very-secret-value|key-listed/);
    expect((await callWithSettings(settings, "POST", "/v1/sms", { token, body: genericSms({ provider: "twilio" }) })).status).toBe(200);
    expect((await outboxOf(projectId))[0]).toMatchObject({ status: "retrying", lastError: "No credentials for twilio in SMS_CREDENTIALS." });
  });

  it("sends /v1/dcp/sms through whatever sms_hub is routed to", async () => {
    const tenant = await registeredTenant();
    const account = `u${uniqueAccount(tenant.projectId)}`;
    const settings = smsSettings({ sms_hub: { adapter: "46elks" } }, { sms_hub: { username: account, password: "good-password" } });
    const body = {
      outboundSMSMessageRequest: { address: ["tel:+46701234567"], senderAddress: "tel:+46709876543", outboundSMSTextMessage: { message: "Hej!" } },
    };
    const reply = await callWithSettings(settings, "POST", "/v1/dcp/sms", { token: tenant.token, body });
    expect(reply.status).toBe(200);
    expect(reply.body).toBeNull();
    expect((await providerLog(account))[0].form).toMatchObject({ from: "+46709876543", to: "+46701234567", message: "Hej!" });
  });
});

describe("the generic gateway", () => {
  it("maps the gateway's answers: 4xx settles as failed, 5xx and 429 retry", async () => {
    const { projectId, token } = await registeredTenant();
    for (const [status, expected] of [
      [400, "failed"],
      [401, "failed"],
      [429, "retrying"],
      [503, "retrying"],
    ] as const) {
      const settings = { SMS_HUB_UPSTREAM_URL: `http://sms-gateway.test/answer-${status}/${projectId}`, SMS_HUB_UPSTREAM_SECRET: "s" };
      expect((await callWithSettings(settings, "POST", "/v1/sms", { token, body: genericSms() })).status).toBe(200);
      const rows = await outboxOf(projectId);
      expect(rows[rows.length - 1]).toMatchObject({ status: expected, errorCode: String(status) });
    }
  });
});
