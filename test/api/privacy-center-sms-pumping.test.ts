// SMS pumping (issue 37, finding 3): codes cost the operator per message, premium and shared-cost ranges pay the
// pumper, and every visitor of a hostile site is a fresh client address. The privacy center sends codes only to
// mobile numbers of the countries the project allows, within a daily cap per project that alerts the operator; and a
// browser call is answered to another origin only when it carries a valid token.
import { describe, expect, it, vi } from "vitest";
import { admin, call, expectProblem, ok, problemOf } from "./helpers";
import { opsWebhook, arrivals } from "./ops-helpers";
import { bothChannels, center, centerTenant, centerWithSettings, uniquePhone, written } from "./privacy-center-helpers";

describe("numbers a code SMS may go to", () => {
  it("refuses numbers of no country, premium and shared-cost ranges and other non-mobile numbers, writing nothing", async () => {
    const tenant = await centerTenant();
    const before = await written(tenant.projectId);
    // International networks (+882, no country), a Swedish premium and shared-cost range, a Danish free-phone number.
    for (const address of ["+88234567890123", "+46900123456", "+46771234567", "+4580123456"]) {
      const reply = await center(tenant.projectId, "POST", "/codes", { body: { channel: "sms", address } });
      expectProblem(reply, 400, "validation_failed");
      expect(problemOf(reply).errors?.[0]).toMatchObject({ path: "address", code: "invalid_address" });
    }
    expect(await written(tenant.projectId)).toEqual(before);
    // Written with spaces and dashes, a mobile number is taken in E.164.
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "sms", address: "+46 70-123 45 67" } }), 202);
  });

  it("sends codes only to the countries the project allows: by default those its jurisdiction rules name", async () => {
    const tenant = await centerTenant();
    // The recommended rules name the EEA, the UK, Switzerland and US states: not Japan.
    const japan = await center(tenant.projectId, "POST", "/codes", { body: { channel: "sms", address: "+819012345678" } });
    expectProblem(japan, 422, "country_not_allowed");
    expect(problemOf(japan).allowed).toContain("SE");
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "sms", address: "+41781234567" } }), 202);
    // Listed in the settings, only those.
    ok(await admin("PUT", `/projects/${tenant.projectId}/privacy-center`, { channels: bothChannels, smsCountries: ["SE"], retentionDays: 30, theme: {} }));
    expectProblem(await center(tenant.projectId, "POST", "/codes", { body: { channel: "sms", address: "+41781234567" } }), 422, "country_not_allowed");
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "sms", address: uniquePhone() } }), 202);
  });

  it("caps a project's code SMS per day, and tells the operator once through ops.alert", async () => {
    const tenant = await centerTenant();
    const ops = opsWebhook();
    const settings = { ...ops.settings, DAILY_SMS_PER_PROJECT: "2" };
    for (let i = 0; i < 2; i++) ok(await centerWithSettings(settings, tenant.projectId, "POST", "/codes", { body: { channel: "sms", address: uniquePhone() } }), 202);
    const refused = await centerWithSettings(settings, tenant.projectId, "POST", "/codes", { body: { channel: "sms", address: uniquePhone() } });
    expectProblem(refused, 429, "sms_cap_reached");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expectProblem(await centerWithSettings(settings, tenant.projectId, "POST", "/codes", { body: { channel: "sms", address: uniquePhone() } }), 429, "sms_cap_reached");
    // Email still works.
    ok(await centerWithSettings(settings, tenant.projectId, "POST", "/codes", { body: { channel: "email", address: "x@mail.example" } }), 202);
    const alerts = await vi.waitFor(
      async () => {
        const got = await arrivals(ops.key);
        expect(got).toHaveLength(1);
        return got;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(JSON.parse(alerts[0].body)).toMatchObject({ type: "ops.alert", data: { rule: "sms_daily_cap", projectId: tenant.projectId, cap: 2 } });
  });
});

describe("browser calls from other origins", () => {
  it("answers a call that carries a made-up Authorization header only for an allowed origin, as one without", async () => {
    const tenant = await centerTenant();
    const path = `/browser/v1/projects/${tenant.projectId}/privacy-center/codes`;
    const hostile = "https://pump.example";
    const preflight = await call("OPTIONS", path, {
      headers: { origin: hostile, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    expectProblem(preflight, 403, "origin_not_allowed");
    const posted = await call("POST", path, { body: { channel: "email", address: "y@mail.example" }, headers: { origin: hostile, authorization: "Bearer made-up" } });
    expect(posted.headers.get("access-control-allow-origin")).toBeNull();
    // A valid token is answered whatever the page's origin.
    const config = await call("GET", `/privacy/v1/configurations?projectId=${tenant.projectId}`, { token: tenant.token, headers: { origin: hostile } });
    expect(config.headers.get("access-control-allow-origin")).toBe(hostile);
  });
});
