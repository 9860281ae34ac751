import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { retrySmsHandOffs } from "../../worker/hub/cron";
import { runCron } from "./cron";
import { admin, call, expectProblem, newClient, newTenant, problemOf, tokenFor } from "./helpers";
import { callWithSettings, identityScopedToken, registeredTenant } from "./hub-helpers";

const dcp = (overrides: Record<string, unknown> = {}, message = "Your order has shipped.") => ({
  outboundSMSMessageRequest: {
    address: ["tel:+46701234567"],
    senderAddress: "tel:+46709876543",
    senderName: "DemoShop",
    outboundSMSTextMessage: { message },
    ...overrides,
  },
});

const generic = (overrides: Record<string, unknown> = {}) => ({
  genericSMSMessagePayload: { receiver: "+46701234567", sender: "DemoShop", message: "Your code is 123456", ...overrides },
});

/** The outbox rows of one project, oldest first. */
async function outbox(projectId: string) {
  const reply = await admin("GET", `/messages?projectId=${projectId}&limit=200`);
  expect(reply.status).toBe(200);
  return (reply.body.items as Record<string, any>[]).reverse();
}

describe("who may call the hub", () => {
  it("answers 403 to non-backend clients and to identity-scoped tokens, before reading the payload", async () => {
    const { projectId } = await registeredTenant();
    const web = await newClient(projectId, "web");
    const token = await tokenFor(web.clientId, web.clientSecret);
    expectProblem(await call("POST", "/v1/dcp/sms", { token, body: dcp() }), 403, "insufficient_scope");
    expectProblem(await call("POST", "/v1/sms", { token, body: { not: "even valid" } }), 403, "insufficient_scope");
    expectProblem(await call("GET", "/v1/customerLookup/servicehub/123", { token }), 403, "insufficient_scope");
    // Identity-scoped tokens never hold the hub's scopes.
    for (const scoped of [await identityScopedToken(projectId, "web"), await identityScopedToken(projectId, "backend")]) {
      for (const reply of [
        await call("POST", "/v1/dcp/sms", { token: scoped, body: dcp() }),
        await call("POST", "/v1/sms", { token: scoped, body: { not: "even valid" } }),
        await call("GET", "/v1/customerLookup/servicehub/123", { token: scoped }),
      ]) {
        expectProblem(reply, 403, "insufficient_scope");
      }
    }
    expectProblem(await call("POST", "/v1/sms", { body: generic() }), 401, "unauthorized");
  });

  it("lets only clients registered for SMS use the outbound request (it has no per-message credentials)", async () => {
    const unregistered = await newTenant();
    expectProblem(await call("POST", "/v1/dcp/sms", { token: unregistered.token, body: dcp() }), 403, "sms_not_enabled");
    expect(await outbox(unregistered.projectId)).toEqual([]);
    expect((await admin("PUT", `/sms/clients/${unregistered.clientId}`)).status).toBe(201);
    expect((await admin("PUT", `/sms/clients/${unregistered.clientId}`)).status).toBe(200);
    expect((await call("POST", "/v1/dcp/sms", { token: unregistered.token, body: dcp() })).status).toBe(200);
    expect((await admin("DELETE", `/sms/clients/${unregistered.clientId}`)).status).toBe(204);
    expectProblem(await call("POST", "/v1/dcp/sms", { token: unregistered.token, body: dcp() }), 403, "sms_not_enabled");
  });

  it("registers only existing backend clients", async () => {
    const { projectId } = await newTenant();
    const web = await newClient(projectId, "web");
    expectProblem(await admin("PUT", `/sms/clients/${web.clientId}`), 400, "backend_client_required");
    expectProblem(await admin("PUT", "/sms/clients/cli_missing"), 404, "not_found");
    expectProblem(await admin("DELETE", "/sms/clients/cli_missing"), 404, "not_found");
  });
});

describe("POST /v1/dcp/sms", () => {
  it("answers 200 with no body and writes one outbox row per recipient", async () => {
    const { projectId, clientId, token } = await registeredTenant();
    const body = dcp({ address: ["tel:+46701234567", "tel:+4915112345678"] });
    const reply = await call("POST", "/v1/dcp/sms", { token, body });
    expect(reply.status).toBe(200);
    expect(reply.body).toBeNull();
    const rows = await outbox(projectId);
    expect(rows.map((r) => r.receiver).sort()).toEqual(["+46701234567", "+4915112345678"]);
    for (const row of rows) {
      expect(row).toMatchObject({
        projectId,
        clientId,
        sender: "DemoShop",
        message: "Your order has shipped.",
        dcs: "gsm",
        segments: 1,
        provider: "sms_hub",
        // No upstream gateway in the test configuration: the outbox is the end of the line.
        status: "outbox_only",
        attempts: 0,
        nextAttempt: null,
      });
    }
  });

  it("uses the sender number when no sender name is given", async () => {
    const { projectId, token } = await registeredTenant();
    const body = dcp({ senderName: undefined, senderAddress: "tel:72000" });
    expect((await call("POST", "/v1/dcp/sms", { token, body })).status).toBe(200);
    expect((await outbox(projectId))[0].sender).toBe("72000");
  });

  it("counts the 160-character limit in characters, not bytes", async () => {
    const { projectId, token } = await registeredTenant();
    const send = (message: string) => call("POST", "/v1/dcp/sms", { token, body: dcp({}, message) });
    // 160 two-byte characters (320 bytes of UTF-8): GSM has é, so one SMS.
    expect((await send("é".repeat(160))).status).toBe(200);
    // 160 Cyrillic characters, also 320 bytes: not GSM, so UCS-2 in 3 parts of 67.
    expect((await send("ж".repeat(160))).status).toBe(200);
    // 160 emoji: 160 characters, 640 bytes, 320 UTF-16 units; pairs are never split, so 33 per part.
    expect((await send("😀".repeat(160))).status).toBe(200);
    const rows = await outbox(projectId);
    expect(rows.map((r) => [r.dcs, r.segments, Array.from(r.message as string).length])).toEqual([
      ["gsm", 1, 160],
      ["ucs", 3, 160],
      ["ucs", 5, 160],
    ]);
    for (const tooLong of ["é".repeat(161), "ж".repeat(161), "a".repeat(161)]) {
      const reply = await send(tooLong);
      expectProblem(reply, 400, "validation_failed");
      expect(problemOf(reply).errors![0].path).toBe("outboundSMSMessageRequest.outboundSMSTextMessage.message");
    }
    expect(await outbox(projectId)).toHaveLength(3);
  });

  it("requires tel: URIs with E.164 numbers", async () => {
    const { token } = await registeredTenant();
    const invalid = [
      "+46701234567", // no tel:
      "tel:46701234567", // no +
      "tel:+0701234567", // country codes do not start with 0
      "tel:+4670123456789012", // 16 digits: E.164 allows 15
      "tel:+123456", // too short to be a number
      "tel:+46 70 123 45 67", // separators
      "tel:+4670abc4567",
    ];
    for (const address of invalid) {
      const reply = await call("POST", "/v1/dcp/sms", { token, body: dcp({ address: [address] }) });
      expectProblem(reply, 400, "validation_failed");
      expect(problemOf(reply).errors![0].path).toBe("outboundSMSMessageRequest.address.0");
    }
    for (const address of [[], ["tel:+46701234567", "tel:+46701234567"]]) {
      const reply = await call("POST", "/v1/dcp/sms", { token, body: dcp({ address }) });
      expectProblem(reply, 400, "validation_failed");
      expect(problemOf(reply).errors![0].path).toBe("outboundSMSMessageRequest.address");
    }
    const badSender = await call("POST", "/v1/dcp/sms", { token, body: dcp({ senderAddress: "+46709876543" }) });
    expect(problemOf(badSender).errors![0].path).toBe("outboundSMSMessageRequest.senderAddress");
    expect((await call("POST", "/v1/dcp/sms", { token, body: dcp({ address: ["tel:+1234567"] }) })).status).toBe(200);
    expect((await call("POST", "/v1/dcp/sms", { token, body: dcp({ address: ["tel:+123456789012345"] }) })).status).toBe(200);
  });

  it("refuses unknown fields, a missing text and control characters", async () => {
    const { token } = await registeredTenant();
    const unknown = await call("POST", "/v1/dcp/sms", { token, body: dcp({ clientCorrelator: "x" }) });
    expectProblem(unknown, 400, "validation_failed");
    expect(problemOf(unknown).errors![0]).toMatchObject({ path: "outboundSMSMessageRequest.clientCorrelator", code: "unknown_field" });
    const noText = await call("POST", "/v1/dcp/sms", { token, body: dcp({ outboundSMSTextMessage: undefined }) });
    expect(problemOf(noText).errors![0].path).toBe("outboundSMSMessageRequest.outboundSMSTextMessage");
    expectProblem(await call("POST", "/v1/dcp/sms", { token, body: dcp({}, "bell\u0007") }), 400, "validation_failed");
    expectProblem(await call("POST", "/v1/dcp/sms", { token, body: { outboundSMSMessageRequest: null } }), 400, "validation_failed");
    expectProblem(
      await call("POST", "/v1/dcp/sms", { token, headers: { "content-type": "text/plain" }, rawBody: "hi" }),
      415,
      "unsupported_media_type",
    );
  });
});

describe("POST /v1/sms", () => {
  it("chooses GSM 03.38 when the text fits it and UCS-2 otherwise, and counts the parts", async () => {
    const { projectId, token } = await registeredTenant();
    const cases: [string, string | undefined, string, number][] = [
      ["Grüße aus Malmö, 5 € {ok}", undefined, "gsm", 1],
      ["Cześć", undefined, "ucs", 1], // ś and ć are not GSM
      ["a".repeat(160), undefined, "gsm", 1],
      ["a".repeat(161), undefined, "gsm", 2],
      ["a".repeat(306), undefined, "gsm", 2],
      ["a".repeat(307), undefined, "gsm", 3],
      ["€".repeat(80), undefined, "gsm", 1], // 160 septets: each € is escape + character
      ["€".repeat(81), undefined, "gsm", 2],
      ["a" + "€".repeat(76), undefined, "gsm", 1], // 153 septets: still one SMS
      ["ж".repeat(70), undefined, "ucs", 1],
      ["ж".repeat(71), undefined, "ucs", 2],
      ["plain", "ucs", "ucs", 1], // the client's choice wins
    ];
    for (const [message, dcs, _, __] of cases) {
      const reply = await call("POST", "/v1/sms", { token, body: generic({ message, ...(dcs ? { dcs } : {}) }) });
      expect(reply.status, message).toBe(200);
      expect(reply.body).toBeNull();
    }
    const rows = await outbox(projectId);
    expect(rows.map((r) => [r.message, r.dcs, r.segments])).toEqual(cases.map(([m, , dcs, segments]) => [m, dcs, segments]));
  });

  it("refuses dcs gsm for text outside GSM 03.38, and texts over 10 parts", async () => {
    const { projectId, token } = await registeredTenant();
    const notGsm = await call("POST", "/v1/sms", { token, body: generic({ message: "Cześć", dcs: "gsm" }) });
    expectProblem(notGsm, 400, "not_gsm_encodable");
    expect(problemOf(notGsm).errors![0].path).toBe("genericSMSMessagePayload.message");
    expectProblem(await call("POST", "/v1/sms", { token, body: generic({ dcs: "utf8" }) }), 400, "validation_failed");
    expect((await call("POST", "/v1/sms", { token, body: generic({ message: "a".repeat(1530) }) })).status).toBe(200);
    expectProblem(await call("POST", "/v1/sms", { token, body: generic({ message: "a".repeat(1531) }) }), 400, "message_too_long");
    expectProblem(await call("POST", "/v1/sms", { token, body: generic({ message: "\ud83d" }) }), 400, "validation_failed");
    expect(await outbox(projectId)).toHaveLength(1);
  });

  it("requires the receiver's country code in E.164 form", async () => {
    const { projectId, token } = await registeredTenant();
    for (const receiver of ["0701234567", "46701234567", "+0701234567", "+4670123456789012", "+46 70 123"]) {
      const reply = await call("POST", "/v1/sms", { token, body: generic({ receiver }) });
      expectProblem(reply, 400, "validation_failed");
      expect(problemOf(reply).errors![0].path).toBe("genericSMSMessagePayload.receiver");
    }
    expect((await call("POST", "/v1/sms", { token, body: generic({ receiver: "tel:+46701234567" }) })).status).toBe(200);
    expect((await outbox(projectId))[0].receiver).toBe("+46701234567");
  });

  it("refuses senders on the operator's blacklist, ignoring case, on both endpoints", async () => {
    const { projectId, token } = await registeredTenant();
    expect((await admin("PUT", "/sms/blacklist/SpamCo")).status).toBe(201);
    expect((await admin("PUT", "/sms/blacklist/spamco")).status).toBe(200);
    expect((await admin("PUT", `/sms/blacklist/${encodeURIComponent("+46700000000")}`)).status).toBe(201);
    expect((await admin("GET", "/sms/blacklist")).body.items.map((e: { sender: string }) => e.sender)).toEqual(["+46700000000", "spamco"]);

    const generic400 = await call("POST", "/v1/sms", { token, body: generic({ sender: "SPAMCO" }) });
    expectProblem(generic400, 400, "sender_blacklisted");
    expect(problemOf(generic400).errors![0].path).toBe("genericSMSMessagePayload.sender");
    expectProblem(await call("POST", "/v1/sms", { token, body: generic({ sender: "+46700000000" }) }), 400, "sender_blacklisted");
    const byName = await call("POST", "/v1/dcp/sms", { token, body: dcp({ senderName: "spamCo" }) });
    expect(problemOf(byName).errors![0].path).toBe("outboundSMSMessageRequest.senderName");
    const byNumber = await call("POST", "/v1/dcp/sms", { token, body: dcp({ senderAddress: "tel:+46700000000" }) });
    expectProblem(byNumber, 400, "sender_blacklisted");
    expect(problemOf(byNumber).errors![0].path).toBe("outboundSMSMessageRequest.senderAddress");
    expect(await outbox(projectId)).toEqual([]);

    expect((await admin("DELETE", "/sms/blacklist/SPAMCO")).status).toBe(204);
    expect((await call("POST", "/v1/sms", { token, body: generic({ sender: "SpamCo" }) })).status).toBe(200);
  });

  it("defaults to sms_hub and refuses unknown providers", async () => {
    const { projectId, token } = await registeredTenant();
    for (const provider of ["twilio", "constructor", "SMS_HUB", ""]) {
      const reply = await call("POST", "/v1/sms", { token, body: generic({ provider }) });
      expectProblem(reply, 400, "unknown_provider");
      expect(problemOf(reply).errors![0].path).toBe("genericSMSMessagePayload.provider");
    }
    expect((await call("POST", "/v1/sms", { token, body: generic({ provider: "sms_hub" }) })).status).toBe(200);
    expect((await call("POST", "/v1/sms", { token, body: generic() })).status).toBe(200);
    expect((await outbox(projectId)).map((r) => r.provider)).toEqual(["sms_hub", "sms_hub"]);
  });

  it("makes unregistered clients authenticate as a registered provider user", async () => {
    const password = "correct horse battery staple";
    expect((await admin("PUT", "/sms/provider-users/acme", { password })).status).toBe(201);
    expect((await admin("GET", "/sms/provider-users")).body.items).toEqual([{ username: "acme", created: expect.any(String) }]);
    expectProblem(await admin("PUT", "/sms/provider-users/acme", { password: "short" }), 400, "validation_failed");

    const { projectId, token } = await newTenant();
    const noAuth = await call("POST", "/v1/sms", { token, body: generic() });
    expectProblem(noAuth, 400, "provider_auth_required");
    expect(problemOf(noAuth).errors![0].path).toBe("genericSMSMessagePayload.auth");
    const wrong = await call("POST", "/v1/sms", { token, body: generic({ auth: { username: "acme", password: "guess" } }) });
    expectProblem(wrong, 403, "provider_auth_failed");
    const unknownUser = await call("POST", "/v1/sms", { token, body: generic({ auth: { username: "nobody", password } }) });
    expectProblem(unknownUser, 403, "provider_auth_failed");
    expect((await call("POST", "/v1/sms", { token, body: generic({ auth: { username: "acme", password } }) })).status).toBe(200);
    expect(await outbox(projectId)).toHaveLength(1);

    // A new password replaces the old one at once.
    expect((await admin("PUT", "/sms/provider-users/acme", { password: "another long password" })).status).toBe(200);
    const old = await call("POST", "/v1/sms", { token, body: generic({ auth: { username: "acme", password } }) });
    expectProblem(old, 403, "provider_auth_failed");

    // Registered clients need no auth, but auth that is sent is checked.
    const registered = await registeredTenant();
    expect((await call("POST", "/v1/sms", { token: registered.token, body: generic() })).status).toBe(200);
    const registeredWrong = generic({ auth: { username: "acme", password: "guess" } });
    expectProblem(await call("POST", "/v1/sms", { token: registered.token, body: registeredWrong }), 403, "provider_auth_failed");

    expect((await admin("DELETE", "/sms/provider-users/acme")).status).toBe(204);
    const deletedUser = generic({ auth: { username: "acme", password: "another long password" } });
    expectProblem(await call("POST", "/v1/sms", { token, body: deletedUser }), 403, "provider_auth_failed");
  });
});

/** A row as the Worker leaves it when it dies between writing a message and handing it on, lease long over. */
async function strandMessage(id: string, projectId: string, clientId: string) {
  const created = new Date(Date.now() - 10 * 60_000).toISOString();
  await env.DB.prepare(
    "INSERT INTO sms_messages (id, project_id, client_id, receiver, sender, text, encoding, segments, provider, status, attempts, next_attempt, created, updated) " +
      "VALUES (?, ?, ?, '+46701234567', 'DemoShop', 'hello', 'gsm', 1, 'sms_hub', 'pending', 0, ?, ?, ?)",
  )
    .bind(id, projectId, clientId, created, created, created)
    .run();
}

describe("the outbox and the upstream gateway", () => {
  const secret = "upstream-secret";

  it("hands messages to the upstream gateway with its secret and the outbox id as idempotency key", async () => {
    const { projectId, token } = await registeredTenant();
    const upstream = `http://sms-gateway.test/ok/${projectId}`;
    const reply = await callWithSettings({ SMS_HUB_UPSTREAM_URL: upstream, SMS_HUB_UPSTREAM_SECRET: secret }, "POST", "/v1/sms", {
      token,
      body: generic({ message: "Cześć" }),
    });
    expect(reply.status).toBe(200);
    const [row] = await outbox(projectId);
    expect(row).toMatchObject({ status: "accepted", attempts: 1, nextAttempt: null, lastError: null });
    const received = await (await fetch(`http://sms-gateway.test/__log/${projectId}`)).json<any[]>();
    expect(received).toHaveLength(1);
    expect(received[0].headers).toMatchObject({ authorization: `Bearer ${secret}`, "idempotency-key": row.id });
    expect(JSON.parse(received[0].body)).toEqual({
      id: row.id,
      receiver: "+46701234567",
      sender: "DemoShop",
      message: "Cześć",
      dcs: "ucs",
      segments: 1,
      // Delivery reports come back to the issuer's origin (no SMS_CALLBACK_BASE_URL here), with the route's token.
      statusCallback: expect.stringMatching(/^http:\/\/assent\.test\/callbacks\/sms\/sms_hub\?token=[\w-]{43}$/),
    });
  });

  it("keeps a message whose hand-off failed and retries it in the cron pass until the gateway takes it", async () => {
    const { projectId, token } = await registeredTenant();
    const failing = { SMS_HUB_UPSTREAM_URL: `http://sms-gateway.test/always-500/${projectId}`, SMS_HUB_UPSTREAM_SECRET: secret };
    const working = { ...env, SMS_HUB_UPSTREAM_URL: `http://sms-gateway.test/ok/${projectId}`, SMS_HUB_UPSTREAM_SECRET: secret };

    const reply = await callWithSettings(failing, "POST", "/v1/dcp/sms", { token, body: dcp() });
    expect(reply.status).toBe(200); // accepted: it is in the outbox and will be retried
    let [row] = await outbox(projectId);
    expect(row).toMatchObject({ status: "retrying", attempts: 1, lastError: "The upstream gateway answered 500." });
    const firstRetryAt = Date.parse(row.nextAttempt);
    expect(firstRetryAt).toBeGreaterThan(Date.parse(row.updated));

    // Not due yet: the pass leaves it alone.
    await retrySmsHandOffs({ ...env, ...failing });
    expect((await outbox(projectId))[0].attempts).toBe(1);

    // Due, gateway still failing: another attempt, a longer wait.
    expect(await retrySmsHandOffs({ ...env, ...failing }, firstRetryAt)).toBeGreaterThanOrEqual(1);
    [row] = await outbox(projectId);
    expect(row).toMatchObject({ status: "retrying", attempts: 2 });
    const secondRetryAt = Date.parse(row.nextAttempt);
    expect(secondRetryAt - Date.parse(row.updated)).toBeGreaterThan(firstRetryAt - Date.parse(row.created));

    // Due, gateway back: sent, once.
    await retrySmsHandOffs(working, secondRetryAt);
    [row] = await outbox(projectId);
    expect(row).toMatchObject({ status: "accepted", attempts: 3, nextAttempt: null, lastError: null });
    const received = await (await fetch(`http://sms-gateway.test/__log/${projectId}`)).json<any[]>();
    expect(received.map((r) => r.url)).toEqual([
      `http://sms-gateway.test/always-500/${projectId}`,
      `http://sms-gateway.test/always-500/${projectId}`,
      `http://sms-gateway.test/ok/${projectId}`,
    ]);
    expect(new Set(received.map((r) => r.headers["idempotency-key"]))).toEqual(new Set([row.id]));
    await retrySmsHandOffs(working, secondRetryAt + 86_400_000);
    expect(await (await fetch(`http://sms-gateway.test/__log/${projectId}`)).json<any[]>()).toHaveLength(3);
  });

  it("retries a message whose attempt never finished, once its lease has passed", async () => {
    const { projectId, clientId } = await registeredTenant();
    await strandMessage(`sms_stranded_${projectId}`, projectId, clientId);
    await retrySmsHandOffs({ ...env, SMS_HUB_UPSTREAM_URL: `http://sms-gateway.test/ok/${projectId}`, SMS_HUB_UPSTREAM_SECRET: secret });
    expect((await outbox(projectId))[0]).toMatchObject({ status: "accepted", attempts: 1 });
  });

  it("runs the retry pass from the Worker's cron trigger", async () => {
    const { projectId, clientId } = await registeredTenant();
    await strandMessage(`sms_cron_${projectId}`, projectId, clientId);
    await runCron();
    // No upstream gateway in the test configuration: the pass settles it as outbox_only.
    expect((await outbox(projectId))[0]).toMatchObject({ status: "outbox_only", nextAttempt: null });
  });

  it("treats a gateway without its secret as a failed hand-off, so nothing is lost while it is fixed", async () => {
    const { projectId, token } = await registeredTenant();
    const reply = await callWithSettings({ SMS_HUB_UPSTREAM_URL: `http://sms-gateway.test/ok/${projectId}` }, "POST", "/v1/sms", {
      token,
      body: generic(),
    });
    expect(reply.status).toBe(200);
    expect((await outbox(projectId))[0]).toMatchObject({ status: "retrying", lastError: "SMS_HUB_UPSTREAM_SECRET is not set." });
  });

  it("lists the outbox newest first, in pages, filtered by status and project", async () => {
    const { projectId, token } = await registeredTenant();
    for (const message of ["one", "two", "three"]) {
      expect((await call("POST", "/v1/sms", { token, body: generic({ message }) })).status).toBe(200);
    }
    const first = await admin("GET", `/messages?projectId=${projectId}&limit=2`);
    expect(first.body.items.map((m: { message: string }) => m.message)).toEqual(["three", "two"]);
    const second = await admin("GET", `/messages?projectId=${projectId}&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toMatchObject({ items: [{ message: "one" }], nextCursor: null });
    const sentOnly = await admin("GET", `/messages?projectId=${projectId}&status=accepted`);
    expect(sentOnly.body.items).toEqual([]);
    expectProblem(await admin("GET", "/messages?limit=0"), 400, "validation_failed");
    expectProblem(await admin("GET", "/messages?status=lost"), 400, "validation_failed");
    expectProblem(await call("GET", "/admin/v1/messages", { token }), 401, "unauthorized");
  });
});
