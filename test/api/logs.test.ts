// What the Worker logs (docs/operations-data.md#logs): one JSON line per request with its request id, route pattern,
// project, method, status and duration, and never the personal data the requests carry. The flows below plant
// values (an e-mail alias, a phone alias, a reference id, client IP addresses, a billing account) and every line
// logged while they run is searched for them.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { Env } from "../../worker/env";
import { describeError } from "../../worker/lib/logger";
import worker from "../../worker/index";
import { admin, call, expectProblem, newTenant, ok, origin, replyTo } from "./helpers";
import { logsFromNow, personalDataIn } from "./log-capture";

let logs: ReturnType<typeof logsFromNow>;
beforeEach(() => {
  logs = logsFromNow();
});

/** A request through the Worker with other bindings (a failing one), its tail work included. */
async function callWith(bindings: Env, method: string, path: string, headers: Record<string, string> = {}) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(origin + path, { method, headers }), bindings, ctx);
  await waitOnExecutionContext(ctx);
  return replyTo(method, path, res);
}

/** A D1 binding whose every query fails, as during a D1 incident. */
const brokenDatabase = (message = "D1_ERROR: storage is unavailable (injected)") =>
  new Proxy(env.DB, {
    get: (target, key) =>
      key === "prepare" || key === "batch" || key === "withSession"
        ? () => {
            throw new Error(message);
          }
        : Reflect.get(target, key),
  });

const unique = () => crypto.randomUUID().replace(/-/g, "").slice(0, 10);

describe("request lines", () => {
  it("logs one JSON line per request: request id (echoed in X-Request-Id), route pattern, project, method, status, duration", async () => {
    const t = await newTenant();
    const created = ok(await t.api("POST", "/identities", { referenceId: `customer-${unique()}` }), 201);
    const read = await t.api("GET", `/identities/${created.identityId}`);
    expect(read.status).toBe(200);
    const requestId = read.headers.get("x-request-id");
    expect(requestId).toMatch(/^[\w-]{8,}$/);

    const line = logs.events("request").find((l) => l.requestId === requestId);
    expect(line).toEqual({
      level: "info",
      event: "request",
      requestId,
      method: "GET",
      route: "/privacy/v2/projects/:project_id/identities/:identityId",
      projectId: t.projectId,
      status: 200,
      durationMs: expect.any(Number),
    });
    // Each answer has its own id; Cloudflare's ray id is the request id when there is one.
    expect(created).toBeDefined();
    const ray = await call("GET", "/healthz", { headers: { "cf-ray": "8f1e2d3c4b5a6978-ARN" } });
    expect(ray.headers.get("x-request-id")).toBe("8f1e2d3c4b5a6978-ARN");
    expect(logs.events("request").filter((l) => l.requestId === "8f1e2d3c4b5a6978-ARN")).toMatchObject([{ route: "/healthz", status: 200 }]);
    // A request id a caller sends is not taken over: the log's ids are the service's own.
    const sent = await call("GET", "/healthz", { headers: { "x-request-id": "customer-supplied-1" } });
    expect(sent.headers.get("x-request-id")).not.toBe("customer-supplied-1");
  });

  it("logs a route that does not exist without its path, and a problem's code with its status", async () => {
    const t = await newTenant();
    const secret = `nobody-${unique()}@example.org`;
    expectProblem(await call("GET", `/no/such/${secret}`), 404, "not_found");
    expectProblem(await t.api("GET", `/identities/aliases/${encodeURIComponent(`urn:svc:email:${secret}`)}`), 404, "not_found");
    const lines = logs.events("request").filter((l) => l.status === 404);
    expect(lines).toMatchObject([
      { route: null, method: "GET", code: "not_found" },
      { route: "/privacy/v2/projects/:project_id/identities/aliases/:alias", projectId: t.projectId, code: "not_found" },
    ]);
    expect(personalDataIn(logs.lines(), [secret])).toEqual([]);
  });

  it("with REQUEST_LOG=problems, logs only the requests answered with a problem", async () => {
    const quiet = { ...env, REQUEST_LOG: "problems" } as Env;
    expect((await callWith(quiet, "GET", "/healthz")).status).toBe(200);
    expectProblem(await callWith(quiet, "GET", "/no/such/route"), 404, "not_found");
    expect(logs.events("request")).toMatchObject([{ route: null, status: 404, code: "not_found" }]);
    // Any other value is the default: every request.
    expect((await callWith({ ...env, REQUEST_LOG: "all" } as Env, "GET", "/healthz")).status).toBe(200);
    expect(logs.events("request")).toHaveLength(2);
  });
});

describe("no personal data in the logs", () => {
  it("the search finds a planted value and each shape of personal data", () => {
    const line = (text: string) => ({ method: "log" as const, text, values: [text] });
    expect(personalDataIn([line("id customer-77")], ["customer-77"])).toHaveLength(1);
    for (const text of ["to a@b.se", "from 203.0.113.9", "from 2001:db8::17", "to +46 70 123 45 67", "idn_01JD0000000000000000000000"]) {
      expect(personalDataIn([line(text)]), text).toHaveLength(1);
    }
    expect(personalDataIn([line('{"event":"request","route":"/healthz","status":200,"durationMs":3}')])).toEqual([]);
  });

  it("nothing logged while flows carry e-mail and phone aliases, reference ids, IP addresses and billing accounts names them, failures included", async () => {
    const t = await newTenant();
    const email = `log-${unique()}@example.org`;
    const phone = `+4670${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
    const referenceId = `customer-${unique()}`;
    const ipv4 = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;
    const ipv6 = `2001:db8::${unique().slice(0, 4)}`;
    const billingAccount = `9${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    const planted = [email, phone, referenceId, ipv4, ipv6, billingAccount, encodeURIComponent(email)];

    const identity = ok(
      await call("POST", `/privacy/v2/projects/${t.projectId}/identities`, {
        token: t.token,
        headers: { "cf-connecting-ip": ipv4 },
        body: { referenceId, aliases: [{ type: "urn:svc:email", identifier: email }, { type: "urn:svc:phone", identifier: phone }] },
      }),
      201,
    );
    const alias = encodeURIComponent(`urn:svc:email:${email}`);
    expect((await call("GET", `/privacy/v2/projects/${t.projectId}/identities/aliases/${alias}`, { token: t.token, headers: { "cf-connecting-ip": ipv6 } })).status).toBe(200);
    // Bad input naming the values: a body that is not JSON, an unknown field.
    await call("POST", `/privacy/v2/projects/${t.projectId}/identities`, { token: t.token, headers: { "content-type": "application/json" }, rawBody: `{"referenceId": ${email}` });
    await t.api("POST", "/identities", { referenceId, owner: phone });
    // Admin-token failures from an address, and a billing account carrying a phone number.
    await call("GET", "/admin/v1/projects", { token: "wrong", headers: { "cf-connecting-ip": ipv4 } });
    expect((await admin("PUT", `/billing-accounts/${billingAccount}`, { tscid: "T-1", assets: [{ id: "a", display_name: phone }] })).status).toBe(201);
    // Failures: the database down under an alias lookup (a 500 on a path that holds an e-mail address).
    const down = { ...env, DB: brokenDatabase(), DB_SHARD_1: brokenDatabase() } as Env;
    expectProblem(await callWith(down, "GET", `/privacy/v2/projects/${t.projectId}/identities/aliases/${alias}`, { authorization: `Bearer ${t.token}` }), 500, "internal_error");
    expect((await t.api("DELETE", `/identities/${identity.identityId}`)).status).toBe(204);

    expect(personalDataIn(logs.lines(), planted)).toEqual([]);
    // The search was not vacuous: every request was logged, and the failure as a line of its own.
    expect(logs.events("request").length).toBeGreaterThanOrEqual(8);
    expect(logs.events("unhandled_error")).toMatchObject([{ level: "error", code: "internal_error", route: "/privacy/v2/projects/:project_id/identities/aliases/:alias" }]);
  });

  it("an error is logged with its code and a message without stack, and the values its message named are masked", async () => {
    const t = await newTenant();
    const email = `err-${unique()}@example.org`;
    const broken = brokenDatabase(`D1_ERROR: no row for ${email} from 203.0.113.9 (injected)`);
    const down = { ...env, DB: broken, DB_SHARD_1: broken } as Env;
    await callWith(down, "GET", `/privacy/v2/projects/${t.projectId}/identities/aliases/${encodeURIComponent(`urn:svc:email:${email}`)}`, { authorization: `Bearer ${t.token}` });
    const [line] = logs.events("unhandled_error");
    expect(line).toMatchObject({ code: "internal_error", error: "Error", message: "D1_ERROR: no row for [e-mail] from [address] (injected)" });
    expect(JSON.stringify(line)).not.toMatch(/\n\s+at /);
    expect(line).not.toHaveProperty("stack");
  });

  it("a query error is logged with the database's own error, which says what went wrong, masked too", () => {
    const failed = new Error('Failed query: select "id" from "clients" where "clients"."id" = ?', {
      cause: new Error("D1_ERROR: no such table: clients (for carl@example.org)\nat somewhere"),
    });
    expect(describeError(failed)).toEqual({
      error: "Error",
      message: 'Failed query: select "id" from "clients" where "clients"."id" = ?: D1_ERROR: no such table: clients (for [e-mail])',
    });
  });
});
