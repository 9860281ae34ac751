import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../worker/lib/crypto";
import { adminToken, call, expectProblem, newProject, newTenant, origin } from "./helpers";

const cookieName = "__Host-assent_portal";

type Session = { cookie: string; sessionId: string; csrfToken: string; setCookie: string };

async function signIn(): Promise<Session> {
  const reply = await call("POST", "/portal/api/session", { body: { adminToken }, headers: { origin } });
  expect(reply.status).toBe(201);
  const setCookie = reply.headers.get("set-cookie") ?? "";
  const sessionId = new RegExp(`^${cookieName}=([^;]+)`).exec(setCookie)?.[1] ?? "";
  expect(sessionId).not.toBe("");
  return { cookie: `${cookieName}=${sessionId}`, sessionId, csrfToken: reply.body.csrfToken, setCookie };
}

/** A call as the portal SPA makes it: session cookie, same origin, and the CSRF header unless told otherwise. */
const portal = <M extends string, P extends string>(s: Session, method: M, path: P, body?: unknown, headers: Record<string, string> = {}) =>
  call(method, path, { body, headers: { cookie: s.cookie, origin, "x-csrf-token": s.csrfToken, ...headers } });

describe("sign-in", () => {
  it("refuses a wrong admin token and a cross-origin sign-in", async () => {
    expectProblem(await call("POST", "/portal/api/session", { body: { adminToken: "nope" }, headers: { origin } }), 401, "unauthorized");
    expectProblem(
      await call("POST", "/portal/api/session", { body: { adminToken }, headers: { origin: "https://evil.example" } }),
      403,
      "cross_origin_refused",
    );
    expectProblem(await call("POST", "/portal/api/session", { body: { adminToken, extra: 1 } }), 400, "validation_failed");
  });

  it("sets a host-only, HttpOnly, Secure, SameSite=Strict, one-hour cookie and stores only the id's hash", async () => {
    const s = await signIn();
    expect(s.setCookie).toContain("HttpOnly");
    expect(s.setCookie).toContain("Secure");
    expect(s.setCookie).toContain("SameSite=Strict");
    expect(s.setCookie).toContain("Path=/");
    expect(s.setCookie).toContain("Max-Age=3600");
    expect(s.setCookie).not.toContain("Domain");
    // In D1 (in the EU where the database is), as a hash: the table cannot be replayed.
    const stored = await env.DB.prepare("SELECT id_hash, csrf_token FROM portal_sessions WHERE id_hash IN (?, ?)")
      .bind(s.sessionId, await sha256Hex(s.sessionId))
      .all<{ id_hash: string; csrf_token: string }>();
    expect(stored.results).toEqual([{ id_hash: await sha256Hex(s.sessionId), csrf_token: s.csrfToken }]);
  });

  it("resumes the session (CSRF token included) after a reload", async () => {
    const s = await signIn();
    const reply = await call("GET", "/portal/api/session", { headers: { cookie: s.cookie } });
    expect(reply.status).toBe(200);
    expect(reply.body.csrfToken).toBe(s.csrfToken);
    expect(Date.parse(reply.body.expires)).toBeGreaterThan(Date.now());
    expectProblem(await call("GET", "/portal/api/session"), 401, "unauthorized");
    expectProblem(await call("GET", "/portal/api/session", { headers: { cookie: `${cookieName}=ps_forged` } }), 401, "unauthorized");
  });
});

describe("the admin API with a session", () => {
  let s: Session;
  beforeAll(async () => {
    s = await signIn();
  });

  it("reads with the cookie alone", async () => {
    const reply = await call("GET", "/admin/v1/projects", { headers: { cookie: s.cookie } });
    expect(reply.status).toBe(200);
    expect(Array.isArray(reply.body.items)).toBe(true);
  });

  it("writes only with the CSRF token from the same origin", async () => {
    const body = { name: "From the portal" };
    expectProblem(await portal(s, "POST", "/admin/v1/projects", body, { "x-csrf-token": "" }), 403, "csrf_failed");
    expectProblem(await portal(s, "POST", "/admin/v1/projects", body, { "x-csrf-token": "csrf_wrong" }), 403, "csrf_failed");
    expectProblem(await portal(s, "POST", "/admin/v1/projects", body, { origin: "https://evil.example" }), 403, "cross_origin_refused");
    expectProblem(await portal(s, "POST", "/admin/v1/projects", body, { "sec-fetch-site": "cross-site" }), 403, "cross_origin_refused");
    const created = await portal(s, "POST", "/admin/v1/projects", body);
    expect(created.status).toBe(201);
    expect(created.body.name).toBe("From the portal");
  });

  it("lets an Authorization header take precedence over the cookie", async () => {
    const reply = await call("GET", "/admin/v1/projects", { token: "wrong", headers: { cookie: s.cookie } });
    expectProblem(reply, 401, "unauthorized");
  });
});

describe("a project's privacy API with a session", () => {
  let s: Session;
  let projectId: string;
  beforeAll(async () => {
    s = await signIn();
    ({ projectId } = await newProject("Privacy via portal"));
  });

  it("acts as the project named in the path", async () => {
    const reply = await call("GET", `/privacy/v2/projects/${projectId}`, { headers: { cookie: s.cookie } });
    expect(reply.status).toBe(200);
    expect(reply.body.projectId).toBe(projectId);
    const updated = await portal(s, "PUT", `/privacy/v2/projects/${projectId}`, { name: "Renamed", jurisdiction: "SE" });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: "Renamed", jurisdiction: "SE" });
  });

  it("needs the CSRF token to change anything", async () => {
    expectProblem(await portal(s, "PUT", `/privacy/v2/projects/${projectId}`, { name: "X" }, { "x-csrf-token": "" }), 403, "csrf_failed");
  });

  it("answers 404 for a project that does not exist", async () => {
    expectProblem(await call("GET", "/privacy/v2/projects/prj_missing", { headers: { cookie: s.cookie } }), 404, "not_found");
    expectProblem(await call("GET", "/privacy/v2/projects/%E0%A4%A/identities/idn_x", { headers: { cookie: s.cookie } }), 404, "not_found");
  });

  it("does not stand in for a token outside project paths", async () => {
    expectProblem(await call("GET", "/privacy/v1/configurations", { headers: { cookie: s.cookie } }), 401, "unauthorized");
  });
});

describe("sign-out", () => {
  it("needs the CSRF token, then ends the session everywhere", async () => {
    const s = await signIn();
    expectProblem(await portal(s, "DELETE", "/portal/api/session", undefined, { "x-csrf-token": "" }), 403, "csrf_failed");
    const out = await portal(s, "DELETE", "/portal/api/session");
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(new RegExp(`^${cookieName}=;.*Max-Age=0`));
    expectProblem(await call("GET", "/admin/v1/projects", { headers: { cookie: s.cookie } }), 401, "unauthorized");
    expectProblem(await call("GET", "/portal/api/session", { headers: { cookie: s.cookie } }), 401, "unauthorized");
  });
});

describe("overview", () => {
  it("answers zero-filled day series for an empty project", async () => {
    const { projectId } = await newProject("Empty overview");
    const reply = await call("GET", `/admin/v1/projects/${projectId}/overview?days=7`, { token: adminToken });
    expect(reply.status).toBe(200);
    expect(reply.body.identities.total).toBe(0);
    expect(reply.body.identities.daily).toHaveLength(7);
    expect(reply.body.identities.daily[6].day).toBe(new Date().toISOString().slice(0, 10));
    expect(reply.body.purposes).toEqual([]);
    expect(reply.body.requests).toEqual({ objection: {}, erasure: {}, access: {} });
  });

  it("counts identities, decisions per purpose and day, the state in force and requests by status", async () => {
    const { projectId, api } = await newTenant();
    const party = await api("POST", "/configurations/parties", { referenceId: "shop", type: "company", details: { name: "Shop AB" } });
    const purpose = await api("POST", "/configurations/purposes", {
      referenceId: "news",
      name: "Newsletter",
      legalGround: "consent",
      controllers: [party.body.partyId],
    });
    const decide = async (status: "approved" | "denied") => {
      const identity = await api("POST", "/identities", {});
      const permission = await api("POST", "/permissions", {
        identityId: identity.body.identityId,
        requested: new Date().toISOString(),
        request: { purposes: [{ purposeId: purpose.body.purposeId, status }] },
      });
      expect(permission.status).toBe(201);
      return identity.body.identityId as string;
    };
    const anna = await decide("approved");
    await decide("approved");
    await decide("denied");
    const erasure = await api("POST", "/erasures", { identityId: anna });
    await api("PUT", `/erasures/${erasure.body.requestId}`, { status: "in_progress" });
    await api("POST", "/accesses", { identityId: anna });

    const reply = await call("GET", `/admin/v1/projects/${projectId}/overview?days=3`, { token: adminToken });
    expect(reply.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(reply.body.identities.total).toBe(3);
    expect(reply.body.identities.daily.at(-1)).toEqual({ day: today, created: 3 });
    expect(reply.body.purposes).toEqual([
      {
        purposeId: purpose.body.purposeId,
        referenceId: "news",
        name: "Newsletter",
        version: "1",
        current: { given: 2, denied: 1 },
        daily: [expect.objectContaining({ given: 0, denied: 0 }), expect.objectContaining({ given: 0, denied: 0 }), { day: today, given: 2, denied: 1 }],
      },
    ]);
    expect(reply.body.requests).toEqual({ objection: {}, erasure: { in_progress: 1 }, access: { received: 1 } });

    // A new version makes the state in force empty until subjects answer again; the decisions stay in the history.
    await api("PUT", `/configurations/purposes/${purpose.body.purposeId}`, {
      referenceId: "news",
      name: "Newsletter",
      legalGround: "consent",
      controllers: [party.body.partyId],
      requireNewConsent: true,
    });
    const after = await call("GET", `/admin/v1/projects/${projectId}/overview?days=1`, { token: adminToken });
    expect(after.body.purposes[0]).toMatchObject({ version: "2", current: { given: 0, denied: 0 }, daily: [{ day: today, given: 2, denied: 1 }] });
  });

  it("validates days and the project", async () => {
    const { projectId } = await newProject();
    expectProblem(await call("GET", `/admin/v1/projects/${projectId}/overview?days=400`, { token: adminToken }), 400, "validation_failed");
    expectProblem(await call("GET", `/admin/v1/projects/${projectId}/overview?days=x`, { token: adminToken }), 400, "validation_failed");
    expectProblem(await call("GET", "/admin/v1/projects/prj_missing/overview", { token: adminToken }), 404, "not_found");
  });
});

describe("the shell's neighbours", () => {
  it("answers problems, not HTML, for unknown portal API routes and missing files", async () => {
    expectProblem(await call("GET", "/portal/api/nothing"), 404, "not_found");
    expectProblem(await call("GET", "/portal/assets/missing.js"), 404, "not_found");
  });
});
