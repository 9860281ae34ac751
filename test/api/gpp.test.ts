// Which IAB GPP sections the bootstrap says the page serves (docs/gpp.md): usnat and the state's own section for a US
// visitor under an opt-out regime, nothing a project's rules do not use.
import { beforeAll, describe, expect, it } from "vitest";
import { bootstrap, localBootstrap, widgetTenant, type WidgetTenant } from "./bootstrap-fixture";
import { admin, expectProblem } from "./helpers";

let tenant: WidgetTenant;
beforeAll(async () => {
  tenant = await widgetTenant();
});

const sectionsAt = async (cf?: Record<string, unknown>) => (await bootstrap(tenant.projectId, { cf })).body.gppSections;

describe("GPP sections in the bootstrap", () => {
  it("under the recommended preset: usnat and each of the five states' own section, usnat alone in other opt-out states", async () => {
    const cases: Array<[string, string[]]> = [
      ["CA", ["usnat", "usca"]],
      ["VA", ["usnat", "usva"]],
      ["CO", ["usnat", "usco"]],
      ["UT", ["usnat", "usut"]],
      ["CT", ["usnat", "usct"]],
      ["TX", ["usnat"]],
      ["OR", ["usnat"]],
    ];
    for (const [state, expected] of cases) {
      expect({ state, sections: await sectionsAt({ country: "US", regionCode: state }) }).toEqual({ state, sections: expected });
    }
  });

  it("names the GPP part in `features` exactly where it serves sections, so the widget loads the GPP chunk there only", async () => {
    const at = async (cf: Record<string, unknown>) => {
      const { gppSections, features } = (await bootstrap(tenant.projectId, { cf })).body;
      return { gppSections, gpp: features.includes("gpp") };
    };
    expect(await at({ country: "US", regionCode: "CA" })).toEqual({ gppSections: ["usnat", "usca"], gpp: true });
    expect(await at({ country: "DE", regionCode: "BY" })).toEqual({ gppSections: [], gpp: false });
  });

  it("serves no section the rules do not use: not under opt-in or notice, not outside the US, not for an unknown place", async () => {
    // New York has no comprehensive law in the preset: notice; Germany: opt-in.
    expect(await sectionsAt({ country: "US", regionCode: "NY" })).toEqual([]);
    expect(await sectionsAt({ country: "DE", regionCode: "BY" })).toEqual([]);
    expect(await sectionsAt(undefined)).toEqual([]);
    // A project that asks for consent in California: no GPP there, while Texas stays opt-out.
    const rules = { rules: [{ area: "US", regime: "opt-out" }, { area: "US-CA", regime: "opt-in" }], rest: "opt-out" };
    expect((await admin("PUT", `/projects/${tenant.projectId}/jurisdictions`, rules)).status).toBe(200);
    expect(await sectionsAt({ country: "US", regionCode: "CA" })).toEqual([]);
    expect(await sectionsAt({ country: "US", regionCode: "TX" })).toEqual(["usnat"]);
    // Opt-out outside the US: no US section.
    expect(await sectionsAt({ country: "JP" })).toEqual([]);
    expect((await admin("PUT", `/projects/${tenant.projectId}/jurisdictions`, { rules: [], rest: "notice" })).status).toBe(200);
    expect(await sectionsAt({ country: "US", regionCode: "CA" })).toEqual([]);
    const recommended = (await admin("GET", "/jurisdiction-presets")).body.items[0].rules;
    expect((await admin("PUT", `/projects/${tenant.projectId}/jurisdictions`, recommended)).status).toBe(200);
  });

  it("in local development the project's jurisdiction stands in for the visitor's state, and a forced opt-in serves none", async () => {
    const placeholder = { country: "US", regionCode: "TX", city: "Austin", postalCode: "78701", asn: 395747 };
    const put = await admin("PUT", `/projects/${tenant.projectId}`, { name: "Local shop", controller: { name: "Shop AB" }, jurisdiction: "US-CO" });
    expect(put.status).toBe(200);
    expect((await localBootstrap(tenant.projectId, { cf: placeholder })).gppSections).toEqual(["usnat", "usco"]);
    expect((await localBootstrap(tenant.projectId, { cf: placeholder, body: { regime: "opt-in" } })).gppSections).toEqual([]);
  });

  it("sensitive data: asked opt-in where the state's law requires consent for it (VA, CO, CT, …), run until refused elsewhere", async () => {
    const location = await tenant.api("POST", "/configurations/purposes", {
      referenceId: "location",
      name: "Store finder",
      legalGround: "consent",
      description: [{ language: "en", text: "Finds the store nearest to you." }],
      controllers: [tenant.controller],
      sensitive: true,
      sensitiveCategories: ["precise-geolocation"],
    });
    expect(location.status).toBe(201);
    const servedAt = async (cf: Record<string, unknown>) => {
      const { purposes } = (await bootstrap(tenant.projectId, { cf })).body.configuration;
      return Object.fromEntries(purposes.map((p: { referenceId: string; regime?: string }) => [p.referenceId, p.regime ?? null]));
    };
    // The states whose law asks consent before sensitive data is processed, under the opt-out regime of the preset.
    for (const state of ["VA", "CO", "CT", "TX", "OR"]) {
      expect({ state, served: await servedAt({ country: "US", regionCode: state }) }).toEqual({
        state,
        served: { marketing: null, analytics: null, location: "opt-in" },
      });
    }
    // California ("Limit the Use") and Utah and Iowa (notice and an opt-out) let it run until the visitor says no.
    for (const state of ["CA", "UT", "IA"]) {
      expect({ state, served: await servedAt({ country: "US", regionCode: state }) }).toEqual({
        state,
        served: { marketing: null, analytics: null, location: null },
      });
    }
    // Under opt-in everything that rests on consent already waits for it: nothing to set apart.
    expect((await servedAt({ country: "DE", regionCode: "BY" })).location).toBeNull();
    expect((await tenant.api("DELETE", `/configurations/purposes/${location.body.purposeId}`)).status).toBe(204);
  });

  it("MSPA per project: not a covered transaction by default; a signatory sets it covered with one mode, and the bootstrap carries it", async () => {
    const ca = { country: "US", regionCode: "CA" };
    const settingsPath = `/projects/${tenant.projectId}/gpp` as const;
    expect(await admin("GET", settingsPath)).toMatchObject({ status: 200, body: { mspaCoveredTransaction: false, mspaMode: null } });
    expect((await bootstrap(tenant.projectId, { cf: ca })).body.gppMspa).toEqual({ mspaCoveredTransaction: false, mspaMode: null });

    const covered = { mspaCoveredTransaction: true, mspaMode: "service-provider" };
    expect(await admin("PUT", settingsPath, covered)).toMatchObject({ status: 200, body: covered });
    expect(await admin("GET", settingsPath)).toMatchObject({ status: 200, body: covered });
    expect((await bootstrap(tenant.projectId, { cf: ca })).body.gppMspa).toEqual(covered);

    // A covered transaction is in exactly one of the two modes; a transaction not covered has none.
    expectProblem(await admin("PUT", settingsPath, { mspaCoveredTransaction: true, mspaMode: null }), 400, "validation_failed");
    expectProblem(await admin("PUT", settingsPath, { mspaCoveredTransaction: false, mspaMode: "opt-out-option" }), 400, "validation_failed");
    expectProblem(await admin("PUT", settingsPath, { mspaCoveredTransaction: true, mspaMode: "both" }), 400, "validation_failed");
    expect((await admin("PUT", "/projects/prj_missing/gpp", covered)).status).toBe(404);
    expect(await admin("PUT", settingsPath, { mspaCoveredTransaction: false, mspaMode: null })).toMatchObject({ status: 200 });
  });
});

