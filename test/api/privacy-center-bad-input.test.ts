// Bad input to the privacy center answers a clear 4xx problem and writes nothing: no code, verification, request,
// log entry, email, SMS or event (`written` counts them all, and every case compares it unchanged).
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, call, expectProblem, ok, origin, problemOf } from "./helpers";
import {
  center,
  centerTenant,
  emailedCode,
  freshAddress,
  me,
  personWithConsent,
  uniqueEmail,
  uniquePhone,
  verifiedByEmail,
  written,
  type PersonRequest,
} from "./privacy-center-helpers";

describe("bad input answers a clear 4xx and writes nothing", () => {
  it("refuses malformed emails, phone numbers that are not E.164 and numbers that are not mobile", async () => {
    const tenant = await centerTenant();
    const before = await written(tenant.projectId);
    for (const [channel, address] of [
      ["email", "not-an-email"],
      ["email", "anna@"],
      ["sms", "0701234567"],
      ["sms", "+46900123456"],
      ["sms", "+0701234567"],
      ["sms", "+12"],
    ]) {
      const reply = await center(tenant.projectId, "POST", "/codes", { body: { channel, address } });
      expectProblem(reply, 400, "validation_failed");
      expect(problemOf(reply).errors).toEqual([expect.objectContaining({ path: "address", code: "invalid_address" })]);
    }
    expect(await written(tenant.projectId)).toEqual(before);
  });

  it("refuses a channel the project has not switched on", async () => {
    const tenant = await centerTenant({ email: { aliasType: "urn:svc:email" } });
    const before = await written(tenant.projectId);
    expectProblem(await center(tenant.projectId, "POST", "/codes", { body: { channel: "sms", address: uniquePhone() } }), 422, "channel_off");
    expect(await written(tenant.projectId)).toEqual(before);
  });

  it("refuses a wrong code (counting it), then a reused code and an expired one", async () => {
    const tenant = await centerTenant();
    const email = uniqueEmail();
    // A wrong code counts against the code the same client address asked for (another's is never used up).
    const ip = freshAddress();
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address: email }, ip }), 202);
    const code = await emailedCode(tenant.projectId, email);
    const wrong = code === "000000" ? "000001" : "000000";
    const beforeWrong = await written(tenant.projectId);
    const refused = await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address: email, code: wrong }, ip });
    expectProblem(refused, 400, "invalid_code");
    expect(problemOf(refused).attemptsLeft).toBe(4);
    expect(await written(tenant.projectId)).toEqual(beforeWrong);

    ok(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address: email, code } }), 201);
    const beforeReuse = await written(tenant.projectId);
    expectProblem(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address: email, code } }), 409, "code_used");
    expect(await written(tenant.projectId)).toEqual(beforeReuse);

    const later = uniqueEmail();
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address: later } }), 202);
    const laterCode = await emailedCode(tenant.projectId, later);
    // Ten minutes pass: the stored expiry is moved into the past, as time would.
    await env.DB.prepare("UPDATE verification_codes SET expires = ? WHERE project_id = ? AND spent IS NULL")
      .bind(new Date(Date.now() - 1000).toISOString(), tenant.projectId)
      .run();
    const beforeExpired = await written(tenant.projectId);
    expectProblem(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "email", address: later, code: laterCode } }), 410, "code_expired");
    expect(await written(tenant.projectId)).toEqual(beforeExpired);
  });

  it("refuses a request for another person's identity", async () => {
    const email = uniqueEmail();
    const tenant = await personWithConsent(email);
    const session = await verifiedByEmail(tenant.projectId, email);
    const { identityId: someoneElse } = ok(await tenant.api("POST", "/identities", {}), 201) as { identityId: string };
    const before = await written(tenant.projectId);
    const reply = await center(tenant.projectId, "POST", "/requests", { body: { kind: "erasure", identityId: someoneElse }, session });
    expectProblem(reply, 403, "not_your_identity");
    expect(await written(tenant.projectId)).toEqual(before);
    // Nor does a session reach another project.
    const other = await centerTenant();
    const otherBefore = await written(other.projectId);
    expectProblem(await center(other.projectId, "GET", "/me", { session }), 401, "verification_required");
    expectProblem(await center(other.projectId, "POST", "/requests", { body: { kind: "erasure" }, session }), 401, "verification_required");
    expect(await written(other.projectId)).toEqual(otherBefore);
  });

  /** A verified person's access request, completed by the operator, and the path of its download link. */
  async function completedAccess() {
    const email = uniqueEmail();
    const tenant = await personWithConsent(email);
    const session = await verifiedByEmail(tenant.projectId, email);
    const { requestId } = ok(await center(tenant.projectId, "POST", "/requests", { body: { kind: "access" }, session }), 201) as PersonRequest;
    ok(await tenant.api("PUT", `/accesses/${requestId}`, { status: "completed" }));
    const { download } = (await me(tenant.projectId, session)).requests[0];
    return { tenant, session, requestId, path: download!.url.slice(origin.length) };
  }

  it("refuses a download link that was tampered with", async () => {
    const { tenant, session, requestId, path } = await completedAccess();
    const other = ok(await center(tenant.projectId, "POST", "/requests", { body: { kind: "portability" }, session }), 201) as PersonRequest;
    const before = await written(tenant.projectId);
    expectProblem(await call("GET", path.slice(0, -4) + (path.endsWith("AAAA") ? "BBBB" : "AAAA")), 410, "download_expired");
    expectProblem(await call("GET", path.replace(requestId, other.requestId)), 410, "download_expired");
    expect(await written(tenant.projectId)).toEqual(before);
  });

  it("writes download links on the configured public origin (ISSUER), whatever Host the request came with", async () => {
    const { tenant, session } = await completedAccess();
    const spoofed = await exports.default.fetch(
      new Request(`http://evil.example/browser/v1/projects/${tenant.projectId}/privacy-center/me`, {
        headers: { authorization: `Bearer ${session}`, "cf-connecting-ip": freshAddress() },
      }),
    );
    expect(spoofed.status).toBe(200);
    const { requests } = (await spoofed.json()) as { requests: PersonRequest[] };
    expect(requests[0].download!.url.startsWith(`${origin}/`), requests[0].download!.url).toBe(true);
  });

  it("refuses a download link 7 days after the request was completed, and no longer shows it", async () => {
    const { tenant, session, requestId, path } = await completedAccess();
    ok(await call("GET", path));
    // Seven days and a minute pass since the completion: the stored time is moved back, as time would move forward.
    await env.DB.prepare("UPDATE requests SET updated = ? WHERE id = ?")
      .bind(new Date(Date.now() - 7 * 24 * 3600_000 - 60_000).toISOString(), requestId)
      .run();
    const before = await written(tenant.projectId);
    expectProblem(await call("GET", path), 410, "download_expired");
    expect((await me(tenant.projectId, session)).requests[0].download).toBeNull();
    expect(await written(tenant.projectId)).toEqual(before);
  });

  it("refuses a theme value that would load something (url(), image-set()) and keeps the stored theme", async () => {
    const tenant = await centerTenant();
    const settings = (theme: Record<string, string>) =>
      admin("PUT", `/projects/${tenant.projectId}/privacy-center`, { channels: { email: { aliasType: "urn:svc:email" } }, retentionDays: 30, theme });
    for (const value of ["url(//evil.example/pixel)", "URL(https://evil.example/p)", "image-set(a.png 1x)", "element(#x)", "src(x)"]) {
      const reply = await settings({ "--assent-surface": value });
      expectProblem(reply, 400, "validation_failed");
    }
    expect(ok(await admin("GET", `/projects/${tenant.projectId}/privacy-center`)).theme).toEqual({ "--assent-accent": "#0b6e4f" });
    const plain = { "--assent-accent": "rgb(138 28 124 / 90%)", "--assent-radius": "calc(0.25rem + 2px)", "--assent-font": "Inter, system-ui, sans-serif" };
    expect(ok(await settings(plain)).theme).toEqual(plain);
  });
});
