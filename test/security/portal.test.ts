// Findings: the portal accepted state changes whose request carried no Origin header at all (docs/portal.md
// promises a same-origin Origin), session creation included. Also covered: rotating ADMIN_TOKEN ends portal
// sessions, and an expired session opens nothing.
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { app } from "../../worker/app";
import { adminToken, call, expectProblem, origin } from "../api/helpers";
import { freshIp, signIn } from "./callers";

afterEach(() => vi.useRealTimers());

describe("unsafe portal requests", () => {
  it("refuses sign-in without a same-origin Origin or Sec-Fetch-Site", async () => {
    const bare = await call("POST", "/portal/api/session", { body: { adminToken }, headers: { "cf-connecting-ip": freshIp() } });
    expectProblem(bare, 403, "cross_origin_refused");
    const bySite = await call("POST", "/portal/api/session", {
      body: { adminToken },
      headers: { "sec-fetch-site": "same-origin", "cf-connecting-ip": freshIp() },
    });
    expect(bySite.status).toBe(201);
  });

  it("refuses a state change carrying the session and CSRF token but no Origin", async () => {
    const session = await signIn();
    const headers = { cookie: session.cookie, "x-csrf-token": session.csrfToken };
    const bare = await call("POST", "/admin/v1/projects", { body: { name: "Framed" }, headers });
    expectProblem(bare, 403, "cross_origin_refused");
    expectProblem(await call("DELETE", "/portal/api/session", { headers }), 403, "cross_origin_refused");
    expect((await call("POST", "/admin/v1/projects", { body: { name: "Mine" }, headers: { ...headers, origin } })).status).toBe(201);
    // Reads stay possible without it (a browser sends no Origin on same-origin GETs).
    expect((await call("GET", "/admin/v1/projects", { headers: { cookie: session.cookie } })).status).toBe(200);
  });
});

describe("session lifetime", () => {
  it("ends every session when ADMIN_TOKEN is rotated", async () => {
    const session = await signIn();
    const request = () => new Request(`${origin}/admin/v1/projects`, { headers: { cookie: session.cookie } });
    expect((await app.fetch(request(), env, createExecutionContext())).status).toBe(200);
    const rotated = await app.fetch(request(), { ...env, ADMIN_TOKEN: "rotated-admin-token" }, createExecutionContext());
    expect(rotated.status).toBe(401);
    expect(((await rotated.json()) as { code: string }).code).toBe("unauthorized");
  });

  it("opens nothing once the session has expired", async () => {
    const session = await signIn();
    expect((await call("GET", "/admin/v1/projects", { headers: { cookie: session.cookie } })).status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 3601 * 1000);
    expectProblem(await call("GET", "/admin/v1/projects", { headers: { cookie: session.cookie } }), 401, "unauthorized");
    expectProblem(await call("GET", "/portal/api/session", { headers: { cookie: session.cookie } }), 401, "unauthorized");
  });
});
