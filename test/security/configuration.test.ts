// Findings: with ISSUER unset the Host header picked the token issuer; with no ADMIN_TOKEN the admin API and portal
// blamed the caller ("not the admin token"); with no SIGNING_KEYS /.well-known/jwks.json was a 500 while /healthz
// said ok. Missing configuration now answers 503 `not_configured` naming what is missing, and /readyz reports it.
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { app } from "../../worker/app";
import type { Env } from "../../worker/env";
import { adminToken, call, expectProblem, newClient, newProject, origin, problemOf, type Reply } from "../api/helpers";
import { freshIp } from "./callers";

/** One request through the real app with some settings missing: same D1, KV and code. */
async function without(names: (keyof Env)[], method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  const settings = { ...env, ...Object.fromEntries(names.map((name) => [name, undefined])) } as Env;
  const headers = { "cf-connecting-ip": freshIp(), ...init.headers };
  const res = await app.fetch(new Request(origin + path, { method, headers, body: init.body }), settings, createExecutionContext());
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

const tokenForm = (clientId: string, clientSecret: string) =>
  new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }).toString();

describe("the issuer", () => {
  it("comes from ISSUER, never from the Host header", async () => {
    const { projectId } = await newProject();
    const client = await newClient(projectId);
    // A request that reached the Worker under another host name (a Host header an attacker chose).
    const forged = await app.fetch(
      new Request("https://evil.example/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": freshIp() },
        body: tokenForm(client.clientId, client.clientSecret),
      }),
      env,
      createExecutionContext(),
    );
    expect(decodeJwt(((await forged.json()) as { access_token: string }).access_token).iss).toBe("http://assent.test");
    const discovery = await app.fetch(new Request("https://evil.example/.well-known/openid-configuration"), env, createExecutionContext());
    expect(await discovery.json()).toMatchObject({ issuer: "http://assent.test", token_endpoint: "http://assent.test/oauth/token" });
  });

  it("is required: without it tokens are neither issued nor accepted (503 not_configured, naming ISSUER)", async () => {
    const { projectId } = await newProject();
    const client = await newClient(projectId);
    const issued = await without(["ISSUER"], "POST", "/oauth/token", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: tokenForm(client.clientId, client.clientSecret),
    });
    expectProblem(issued, 503, "not_configured");
    expect(problemOf(issued).setting).toBe("ISSUER");
  });
});

describe("missing secrets and bindings", () => {
  it("answers 503 naming ADMIN_TOKEN on the admin API and the portal sign-in", async () => {
    const listed = await without(["ADMIN_TOKEN"], "GET", "/admin/v1/projects", { headers: { authorization: `Bearer ${adminToken}` } });
    expectProblem(listed, 503, "not_configured");
    expect(problemOf(listed).setting).toBe("ADMIN_TOKEN");
    const signIn = await without(["ADMIN_TOKEN"], "POST", "/portal/api/session", {
      headers: { origin, "content-type": "application/json" },
      body: JSON.stringify({ adminToken: "anything" }),
    });
    expectProblem(signIn, 503, "not_configured");
    expect(problemOf(signIn).setting).toBe("ADMIN_TOKEN");
  });

  it("answers 503 naming SIGNING_KEYS on the key set, not 500", async () => {
    const jwks = await without(["SIGNING_KEYS"], "GET", "/.well-known/jwks.json");
    expectProblem(jwks, 503, "not_configured");
    expect(problemOf(jwks).setting).toBe("SIGNING_KEYS");
  });

  it("answers 503 naming a missing storage binding", async () => {
    const reply = await without(["DB"], "GET", "/admin/v1/projects", { headers: { authorization: `Bearer ${adminToken}` } });
    expectProblem(reply, 503, "not_configured");
    expect(problemOf(reply).setting).toBe("DB");
  });

  it("reports readiness at /readyz while /healthz stays a liveness probe", async () => {
    expect((await call("GET", "/readyz")).body).toMatchObject({ status: "ready", service: "assent" });
    const notReady = await without(["SIGNING_KEYS", "ISSUER", "TOKEN_ENDPOINT_LIMITER"], "GET", "/readyz");
    expectProblem(notReady, 503, "not_configured");
    expect(problemOf(notReady).missing).toEqual(["SIGNING_KEYS", "ISSUER", "TOKEN_ENDPOINT_LIMITER"]);
    expect((await without(["SIGNING_KEYS"], "GET", "/healthz")).status).toBe(200);
  });

  it("answers 503 naming a missing rate-limit binding where it is needed", async () => {
    const { projectId } = await newProject();
    const client = await newClient(projectId);
    const reply = await without(["TOKEN_ENDPOINT_LIMITER"], "POST", "/oauth/token", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: tokenForm(client.clientId, client.clientSecret),
    });
    expectProblem(reply, 503, "not_configured");
    expect(problemOf(reply).setting).toBe("TOKEN_ENDPOINT_LIMITER");
  });
});
