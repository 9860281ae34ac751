// A project's TCF settings (docs/tcf.md#a-projects-settings): on or off, the registered CMP, the GVL vendors, publisher
// restrictions and purposes, Google's AC providers; checked against the hosted lists, refused with a stable code
// naming the offending ids, nothing stored on a refusal; the project's own, as everywhere.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Env } from "../../worker/env";
import { refreshLists } from "../../worker/tcf/refresh";
import gvlSnapshot from "../fixtures/tcf/vendor-list.json";
import atpSnapshot from "../fixtures/tcf/additional-consent-providers.csv?raw";
import frenchSnapshot from "../fixtures/tcf/purposes-fr.json";
import { signInWith, mailedLink } from "./accounts-helpers";
import { bootstrap, widgetTenant } from "./bootstrap-fixture";
import { admin, adminToken, call, expectProblem, newProject, ok, problemOf } from "./helpers";

const settings = {
  enabled: true,
  cmpId: 300,
  cmpVersion: 2,
  vendors: [755, 10, 52],
  publisherRestrictions: [{ purpose: 2, type: "require-consent", vendors: [755] }],
  publisherPurposes: { consent: [1, 3], legitimateInterest: [7] },
  acProviders: [89],
};
const path = (projectId: string) => `/admin/v1/projects/${projectId}/tcf` as const;
const put = (projectId: string, body: unknown) => admin("PUT", `/projects/${projectId}/tcf`, body);

describe("before the cron fetched the lists", () => {
  it("TCF stays off and vendors cannot be chosen: 409 vendor_list_unavailable", async () => {
    // Files before this one on the same workerd run the cron, whose refresh keeps the stand-in publisher's lists
    // (vitest.config.ts tcfListsStandIn); seen kept here in a run of seven api files: start from no list and no refresh.
    await env.DB.batch([env.DB.prepare("DELETE FROM tcf_lists"), env.DB.prepare("DELETE FROM tcf_refreshes")]);
    const { projectId } = await newProject();
    expect((await admin("GET", `/projects/${projectId}/tcf`)).body).toMatchObject({ enabled: false, vendors: [], acProviders: [] });
    expectProblem(await put(projectId, settings), 409, "vendor_list_unavailable");
  });

  it("TCF can be turned on without vendors: accepted, the lists fetched at once, and vendors checked against them", async () => {
    await env.DB.batch([env.DB.prepare("DELETE FROM tcf_lists"), env.DB.prepare("DELETE FROM tcf_refreshes")]);
    const { projectId } = await newProject();
    const on = { ...settings, vendors: [], publisherRestrictions: [], publisherPurposes: { consent: [], legitimateInterest: [] }, acProviders: [] };
    expect(await put(projectId, on)).toMatchObject({ status: 200, body: on });
    // The PUT started the refresh (the stand-in publisher, vitest.config.ts tcfListsStandIn): no wait for the cron's Thursday.
    await expect.poll(async () => (await call("GET", "/tcf/v3/vendor-list.json")).status, { timeout: 60_000, interval: 200 }).toBe(200);
    await expect.poll(async () => (await call("GET", "/tcf/atp/additional-consent-providers.json")).status, { timeout: 60_000, interval: 200 }).toBe(200);
    // Once a list exists, its ids are checked as ever.
    expectProblem(await put(projectId, { ...on, vendors: [755, 4242] }), 400, "unknown_vendors");
    expect(await put(projectId, { ...on, vendors: [755], acProviders: [89] })).toMatchObject({ status: 200 });
  }, 150_000);
});

describe("the project's TCF settings", () => {
  let projectId: string;
  beforeAll(async () => {
    const lists: Record<string, string> = { "vendor-list.json": JSON.stringify(gvlSnapshot), "additional-consent-providers.csv": atpSnapshot, "purposes-fr.json": JSON.stringify(frenchSnapshot) };
    const served = async (url: string) => new Response(lists[url.split("/").pop()!] ?? "not published", { status: url.split("/").pop()! in lists ? 200 : 404 });
    // Until the French translation is among the lists tried (ten a run; the others are not published here).
    for (let minute = 0; minute < 6; minute++) await refreshLists(env as Env, Date.now() + minute * 60_000, served);
    ({ projectId } = await newProject());
  });

  it("are stored and read back, and change the widget's configuration version", async () => {
    const version = async () => (await env.DB.prepare("SELECT config_version AS v FROM projects WHERE id = ?").bind(projectId).first<{ v: number }>())!.v;
    const before = await version();
    expect(await put(projectId, settings)).toMatchObject({ status: 200, body: settings });
    expect((await admin("GET", `/projects/${projectId}/tcf`)).body).toEqual(settings);
    expect(await version()).toBeGreaterThan(before);
  });

  it("refuse what the lists do not hold, naming each id, and store nothing", async () => {
    const refusals: [Record<string, unknown>, string, Record<string, unknown>][] = [
      [{ vendors: [755, 4242, 9999] }, "unknown_vendors", { vendors: [4242, 9999] }],
      [{ publisherPurposes: { consent: [12], legitimateInterest: [] } }, "unknown_purposes", { purposes: [12] }],
      [{ publisherRestrictions: [{ purpose: 99, type: "not-allowed", vendors: [755] }] }, "unknown_purposes", { purposes: [99] }],
      [{ publisherRestrictions: [{ purpose: 2, type: "not-allowed", vendors: [793] }] }, "restriction_vendor_not_selected", { vendors: [793] }],
      [{ publisherPurposes: { consent: [], legitimateInterest: [3] } }, "legitimate_interest_not_allowed", { purposes: [3] }],
      [{ publisherRestrictions: [{ purpose: 1, type: "require-legitimate-interest", vendors: [10] }] }, "legitimate_interest_not_allowed", { purposes: [1] }],
      [
        { publisherRestrictions: [{ purpose: 2, type: "not-allowed", vendors: [10] }, { purpose: 2, type: "require-consent", vendors: [10] }] },
        "restriction_conflict",
        { purposes: [2] },
      ],
      [{ acProviders: [89, 54321] }, "unknown_ac_providers", { providers: [54321] }],
      [{ cmpId: 0 }, "cmp_id_required", { field: "cmpId" }],
    ];
    for (const [change, code, members] of refusals) {
      const reply = await put(projectId, { ...settings, ...change });
      expectProblem(reply, 400, code);
      expect(problemOf(reply), code).toMatchObject(members);
    }
    for (const malformed of [{ ...settings, cmpId: 4096 }, { ...settings, vendors: [10, 10] }, { ...settings, vendors: [-1] }, { ...settings, extra: true }, { ...settings, publisherRestrictions: [{ purpose: 2, type: "maybe", vendors: [10] }] }]) {
      expectProblem(await put(projectId, malformed), 400, "validation_failed");
    }
    expect((await admin("GET", `/projects/${projectId}/tcf`)).body).toEqual(settings);
  });

  it("allow CMP id 0 with TCF off, and in local development", async () => {
    const off = { ...settings, enabled: false, cmpId: 0 };
    expect(await put(projectId, off)).toMatchObject({ status: 200, body: off });
    const { default: worker } = await import("../../worker/index");
    const local = await worker.fetch(
      new Request(`http://assent.test${path(projectId)}`, { method: "PUT", headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" }, body: JSON.stringify({ ...settings, cmpId: 0 }) }),
      { ...env, LOCAL_DEV: "true" } as Env,
      { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext,
    );
    expect(local.status).toBe(200);
  });

  it("are the project's own: another organization's member finds nothing (404)", async () => {
    const made = await call("POST", "/admin/v1/organizations", { token: adminToken, body: { name: "Another publisher", ownerEmail: "tcf-stranger@example.org" } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const stranger = await signInWith(await mailedLink("tcf-stranger@example.org"));
    expectProblem(await stranger.call("GET", path(projectId)), 404, "not_found");
    expectProblem(await stranger.call("PUT", path(projectId), settings), 404, "not_found");
    expectProblem(await put("prj_missing", { ...settings, enabled: false, vendors: [], publisherRestrictions: [], publisherPurposes: { consent: [], legitimateInterest: [] }, acProviders: [] }), 404, "not_found");
  });

  it("give the project its own vendor list: its vendors only, in the GVL's languages, renewed with the settings", async () => {
    const { projectId: own } = await newProject();
    const listOf = (query = "") => call("GET", `/tcf/v3/projects/${own}/vendor-list.json${query}`);
    expectProblem(await listOf(), 404, "not_found");
    ok(await put(own, { ...settings, vendors: [755, 10], publisherRestrictions: [] }));
    const english = await listOf();
    const list = ok(english) as { vendorListVersion: number; language: string; vendors: Record<string, unknown>; purposes: Record<string, { name: string }> };
    expect(Object.keys(list.vendors).sort()).toEqual(["10", "755"]);
    expect(list.vendors["755"]).toEqual(gvlSnapshot.vendors["755"]);
    expect([list.vendorListVersion, list.language, Object.keys(list.purposes).length]).toEqual([120, "en", 11]);
    expect(english.headers.get("access-control-allow-origin")).toBe("*");
    // What the widget writes the strings with, beside the vendors (a project without a jurisdiction: country unknown, AA).
    expect((list as unknown as { settings: unknown }).settings).toEqual({
      cmpId: 300,
      cmpVersion: 2,
      vendors: [755, 10],
      publisherRestrictions: [],
      publisherPurposes: settings.publisherPurposes,
      acProviders: [89],
      publisherCountryCode: "AA",
    });
    // The AC providers the dialog lists, named from the hosted ATP list.
    expect((list as unknown as { acProviders: unknown }).acProviders).toEqual({ "89": { id: 89, name: "Meta Platforms", policyUrl: "https://www.facebook.com/about/privacy/update" } });
    const french = ok(await listOf("?lang=fr")) as typeof list;
    expect([french.language, french.purposes["1"]!.name]).toEqual(["fr", "Stocker et/ou accéder à des informations sur un appareil"]);
    expectProblem(await listOf("?lang=xx"), 400, "validation_failed");
    // A change of vendors is served at once: the cached list is keyed by the project's configuration version.
    ok(await put(own, { ...settings, vendors: [52], publisherRestrictions: [] }));
    expect(Object.keys((ok(await listOf()) as typeof list).vendors)).toEqual(["52"]);
    ok(await put(own, { ...settings, enabled: false, publisherRestrictions: [] }));
    expectProblem(await listOf(), 404, "not_found");
  });

  it("make the bootstrap name the TCF part where the project has TCF on and the visitor is under opt-in, nowhere else", async () => {
    const tenant = await widgetTenant();
    // The parts that depend on the place and the settings; `analytics` is named for every project (analytics-experiments.test.ts).
    const features = async (cf: Record<string, unknown>) =>
      ((await bootstrap(tenant.projectId, { cf })).body.features as string[]).filter((name) => name !== "analytics");
    const germany = { country: "DE", regionCode: "BY" };
    const california = { country: "US", regionCode: "CA" };
    expect(await features(germany)).toEqual([]);
    ok(await put(tenant.projectId, { ...settings, publisherRestrictions: [] }));
    expect(await features(germany)).toEqual(["tcf"]);
    // Opt-out: no TCF (GPP's part instead).
    expect(await features(california)).toEqual(["gpp"]);
    ok(await put(tenant.projectId, { ...settings, enabled: false, publisherRestrictions: [] }));
    expect(await features(germany)).toEqual([]);
  });
});
