import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { webhookUrlProblem } from "../../shared/ssrf";
import { call, expectProblem, newClient, newTenant, openApiDocument, problemOf, tokenFor } from "./helpers";

const hookUrl = "https://hooks.customer.example/ok/subscriptions";

describe("webhook subscriptions", () => {
  it("shows the secret once, in Standard Webhooks form, and stores it encrypted", async () => {
    const t = await newTenant();
    const created = await t.api("POST", "/webhooks", {
      url: hookUrl,
      events: ["permission.created", "permission_state.changed"],
      description: "CRM sync",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      projectId: t.projectId,
      url: hookUrl,
      events: ["permission.created", "permission_state.changed"],
      description: "CRM sync",
      previousSecretExpires: null,
    });
    expect(created.body.webhookId).toMatch(/^whk_/);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(atob(created.body.secret.slice(6))).toHaveLength(32);

    const one = await t.api("GET", `/webhooks/${created.body.webhookId}`);
    expect(one.status).toBe(200);
    expect(one.body).not.toHaveProperty("secret");
    const { secret, ...withoutSecret } = created.body;
    expect(one.body).toEqual(withoutSecret);
    const list = await t.api("GET", "/webhooks");
    expect(list.body).toEqual({ webhooks: [withoutSecret] });

    const stored = await env.DB.prepare("select secret from webhooks where id = ?").bind(created.body.webhookId).first<{ secret: string }>();
    expect(stored?.secret).toMatch(/^v1\./);
    expect(stored?.secret).not.toContain(secret.slice(6));
  });

  it("refuses unknown fields, unknown or repeated event types and an empty list", async () => {
    const t = await newTenant();
    for (const body of [
      { url: hookUrl, events: ["permission.created"], secret: "mine" },
      { url: hookUrl, events: ["permission.deleted"] },
      { url: hookUrl, events: ["permission.created", "permission.created"] },
      { url: hookUrl, events: [] },
      { url: "not a url", events: ["permission.created"] },
    ]) {
      expectProblem(await t.api("POST", "/webhooks", body), 400, "validation_failed");
    }
  });

  it("replaces and deletes, and another project's webhook is not found", async () => {
    const t = await newTenant();
    const other = await newTenant();
    const { body: hook } = await t.api("POST", "/webhooks", { url: hookUrl, events: ["erasure.created"] });
    const replaced = await t.api("PUT", `/webhooks/${hook.webhookId}`, {
      url: "https://hooks.customer.example/ok/replaced",
      events: ["erasure.updated", "identity.deleted"],
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      url: "https://hooks.customer.example/ok/replaced",
      events: ["erasure.updated", "identity.deleted"],
      description: null,
    });

    expectProblem(await other.api("GET", `/webhooks/${hook.webhookId}`), 404, "not_found");
    expectProblem(await other.api("PUT", `/webhooks/${hook.webhookId}`, { url: hookUrl, events: ["erasure.created"] }), 404, "not_found");
    expectProblem(await other.api("DELETE", `/webhooks/${hook.webhookId}`), 404, "not_found");
    expectProblem(await other.api("POST", `/webhooks/${hook.webhookId}/secret`), 404, "not_found");
    expectProblem(await other.api("GET", `/webhooks/${hook.webhookId}/deliveries`), 404, "not_found");

    expect((await t.api("DELETE", `/webhooks/${hook.webhookId}`)).status).toBe(204);
    expectProblem(await t.api("GET", `/webhooks/${hook.webhookId}`), 404, "not_found");
    expectProblem(await t.api("DELETE", `/webhooks/${hook.webhookId}`), 404, "not_found");
  });

  it("is managed by backend clients only", async () => {
    const t = await newTenant();
    const web = await newClient(t.projectId, "web", ["https://shop.example"]);
    const token = await tokenFor(web.clientId, web.clientSecret);
    const reply = await call("POST", `/privacy/v2/projects/${t.projectId}/webhooks`, {
      token,
      body: { url: hookUrl, events: ["permission.created"] },
    });
    expectProblem(reply, 403, "insufficient_scope");
    expectProblem(await call("GET", `/privacy/v2/projects/${t.projectId}/webhooks`, { token }), 403, "insufficient_scope");
  });

  it("allows at most 20 webhooks per project", async () => {
    const t = await newTenant();
    for (let i = 0; i < 20; i++) {
      expect((await t.api("POST", "/webhooks", { url: `${hookUrl}-${i}`, events: ["access.created"] })).status).toBe(201);
    }
    expectProblem(await t.api("POST", "/webhooks", { url: hookUrl, events: ["access.created"] }), 409, "webhook_limit_reached");
  });

  it("rotates the secret with a grace period for the previous one", async () => {
    const t = await newTenant();
    const { body: hook } = await t.api("POST", "/webhooks", { url: hookUrl, events: ["objection.created"] });

    const rotated = await t.api("POST", `/webhooks/${hook.webhookId}/secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(hook.secret);
    const graceMs = Date.parse(rotated.body.previousSecretExpires!) - Date.now();
    expect(graceMs).toBeGreaterThan(23 * 3600_000);
    expect(graceMs).toBeLessThanOrEqual(24 * 3600_000);
    expect((await t.api("GET", `/webhooks/${hook.webhookId}`)).body.previousSecretExpires).toBe(rotated.body.previousSecretExpires);

    const short = await t.api("POST", `/webhooks/${hook.webhookId}/secret`, { gracePeriodSeconds: 60 });
    expect(Date.parse(short.body.previousSecretExpires!) - Date.now()).toBeLessThanOrEqual(60_000);

    const immediate = await t.api("POST", `/webhooks/${hook.webhookId}/secret`, { gracePeriodSeconds: 0 });
    expect(immediate.body.previousSecretExpires).toBeNull();
    expect((await t.api("GET", `/webhooks/${hook.webhookId}`)).body.previousSecretExpires).toBeNull();

    expectProblem(await t.api("POST", `/webhooks/${hook.webhookId}/secret`, { gracePeriodSeconds: 8 * 86400 }), 400, "validation_failed");
    expectProblem(await t.api("POST", `/webhooks/${hook.webhookId}/secret`, { grace: 1 }), 400, "validation_failed");
  });
});

describe("documentation", () => {
  it("lists the webhook routes in the OpenAPI document", async () => {
    const doc = await openApiDocument();
    expect(doc.status).toBe(200);
    const base = "/privacy/v2/projects/{project_id}/webhooks";
    for (const [path, method] of [
      [base, "post"],
      [base, "get"],
      [`${base}/{webhook_id}`, "put"],
      [`${base}/{webhook_id}/secret`, "post"],
      [`${base}/{webhook_id}/deliveries`, "get"],
      [`${base}/{webhook_id}/deliveries/{delivery_id}/redeliver`, "post"],
    ]) {
      expect(doc.body.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
  });
});

describe("SSRF guard", () => {
  const refused = [
    "http://hooks.customer.example/plain-http",
    "https://127.0.0.1/hook",
    "https://2130706433/decimal-loopback",
    "https://0x7f.1/hex-loopback",
    "https://10.1.2.3/hook",
    "https://172.16.0.1/hook",
    "https://192.168.1.10/hook",
    "https://100.64.0.1/cgnat",
    "https://169.254.169.254/latest/meta-data",
    "https://0.0.0.0/hook",
    "https://localhost/hook",
    "https://api.localhost/hook",
    "https://[::1]/hook",
    "https://[::]/hook",
    "https://[::ffff:127.0.0.1]/mapped",
    "https://[::ffff:10.0.0.1]/mapped",
    "https://[64:ff9b::a9fe:a9fe]/nat64-metadata",
    "https://[fe80::1]/link-local",
    "https://[fd12:3456::1]/unique-local",
    "https://[ff02::1]/multicast",
    "https://metadata.google.internal/computeMetadata",
    "https://printer.local/hook",
    "https://intranet/hook",
    "https://user:password@hooks.customer.example/credentials",
    "https://token@hooks.customer.example/credentials",
    "ftp://hooks.customer.example/hook",
  ];

  it("refuses non-https, private, loopback, link-local and credentialed URLs in production mode", async () => {
    const t = await newTenant();
    const { body: hook } = await t.api("POST", "/webhooks", { url: hookUrl, events: ["permission.created"] });
    for (const url of refused) {
      const created = await t.api("POST", "/webhooks", { url, events: ["permission.created"] });
      expect(created.status, url).toBe(400);
      expect(problemOf(created).code, url).toMatch(/^(webhook_url_not_allowed|validation_failed)$/);
      expect(problemOf(created).errors?.[0]?.path, url).toBe("url");
      const replaced = await t.api("PUT", `/webhooks/${hook.webhookId}`, { url, events: ["permission.created"] });
      expect(replaced.status, url).toBe(400);
    }
    expect((await t.api("GET", `/webhooks/${hook.webhookId}`)).body.url).toBe(hookUrl);
  });

  it("accepts https to public names and addresses", () => {
    for (const url of [hookUrl, "https://203.0.114.5/hook", "https://[2606:4700::1111]/hook", "https://hooks.customer.example:8443/x?y=1"]) {
      expect(webhookUrlProblem(url, false), url).toBeUndefined();
    }
  });

  it("with ALLOW_LOOPBACK_WEBHOOKS also accepts loopback over http, and nothing else more", () => {
    for (const url of ["http://localhost:3000/hook", "http://127.0.0.1:8080/hook", "http://[::1]:9000/hook", "https://localhost/hook"]) {
      expect(webhookUrlProblem(url, true), url).toBeUndefined();
    }
    for (const url of refused.filter((u) => !/\/\/(127\.|2130706433|0x7f|localhost|api\.localhost|\[::1\]|\[::ffff:127)/.test(u))) {
      expect(webhookUrlProblem(url, true), url).toBeDefined();
    }
    expect(webhookUrlProblem("http://user:pw@localhost:3000/hook", true)).toBeDefined();
  });
});
