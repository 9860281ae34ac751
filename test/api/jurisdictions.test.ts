import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { consentDefaults } from "../../worker/consent-mode/defaults";
import { defaultRules, effectiveAreas, resolveRegime } from "../../worker/jurisdictions/rules";
import { bootstrap, localBootstrap, widgetTenant, type WidgetTenant } from "./bootstrap-fixture";
import { admin, call, expectProblem, problemOf } from "./helpers";

describe("regime resolution from request.cf", () => {
  let tenant: WidgetTenant;
  beforeAll(async () => {
    tenant = await widgetTenant();
  });

  const regimeAt = async (cf?: Record<string, unknown>) => (await bootstrap(tenant.projectId, { cf })).body.regime;

  it("applies the recommended preset to a project without rules", async () => {
    const cases: Array<[Record<string, unknown> | undefined, string]> = [
      [{ country: "DE", regionCode: "BY" }, "opt-in"],
      [{ country: "NO" }, "opt-in"],
      [{ country: "GB", regionCode: "ENG" }, "opt-in"],
      [{ country: "CH", regionCode: "ZH" }, "opt-in"],
      [{ country: "US", regionCode: "CA" }, "opt-out"],
      [{ country: "US", regionCode: "CO" }, "opt-out"],
      [{ country: "US", regionCode: "NY" }, "notice"],
      [{ country: "US" }, "notice"],
      [{ country: "JP", regionCode: "13" }, "notice"],
      [{ country: "T1" }, "notice"],
      [undefined, "notice"],
    ];
    for (const [cf, expected] of cases) {
      const regime = await regimeAt(cf);
      expect({ cf, name: regime.name }).toEqual({ cf, name: expected });
    }
    expect(await regimeAt({ country: "US", regionCode: "CA" })).toMatchObject({ country: "US", region: "CA" });
    expect(await regimeAt({ country: "T1" })).toMatchObject({ country: null, region: null });
  });

  it("names the links whose words the visitor's law prescribes: California's, under opt-out only", async () => {
    const both = ["doNotSell", "limitSensitive"];
    expect((await regimeAt({ country: "US", regionCode: "CA" })).prescribed).toEqual(both);
    expect((await regimeAt({ country: "US", regionCode: "VA" })).prescribed).toEqual([]);
    expect((await regimeAt({ country: "US", regionCode: "NY" })).prescribed).toEqual([]);
    expect((await regimeAt({ country: "DE" })).prescribed).toEqual([]);
    // A project that asks Californians to opt in: nothing to opt out of, so no such link.
    const strict = await widgetTenant();
    await admin("PUT", `/projects/${strict.projectId}/jurisdictions`, { rules: [{ area: "US", regime: "opt-in" }], rest: "notice" });
    const optIn = (await bootstrap(strict.projectId, { cf: { country: "US", regionCode: "CA" } })).body.regime;
    expect(optIn).toMatchObject({ name: "opt-in", prescribed: [] });
  });

  it("follows the project's own rules: subdivision, then country, then group, then rest", async () => {
    const rules = {
      rules: [
        { area: "US", regime: "opt-out" },
        { area: "US-CA", regime: "opt-in" },
        { area: "EEA", regime: "notice" },
        { area: "DE", regime: "opt-in" },
      ],
      rest: "opt-out",
    };
    const put = await admin("PUT", `/projects/${tenant.projectId}/jurisdictions`, rules);
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ ...rules, refusalStandsSeconds: 15_778_800, preset: null });
    expect((await regimeAt({ country: "US", regionCode: "CA" })).name).toBe("opt-in");
    expect((await regimeAt({ country: "US", regionCode: "TX" })).name).toBe("opt-out");
    expect((await regimeAt({ country: "FR" })).name).toBe("notice");
    expect((await regimeAt({ country: "DE" })).name).toBe("opt-in");
    expect((await regimeAt({ country: "JP" })).name).toBe("opt-out");
  });
});

describe("local development (LOCAL_DEV) where wrangler dev could not learn the location", () => {
  // Miniflare's stand-in request.cf when it cannot fetch the real one (its `fallbackCf`): the same Austin, Texas for
  // every request, which the recommended preset would answer with opt-out.
  const placeholder = {
    asn: 395747,
    colo: "DFW",
    city: "Austin",
    region: "Texas",
    regionCode: "TX",
    metroCode: "635",
    postalCode: "78701",
    country: "US",
    continent: "NA",
    timezone: "America/Chicago",
    latitude: "30.27130",
    longitude: "-97.74260",
  };
  let tenant: WidgetTenant;
  beforeAll(async () => {
    tenant = await widgetTenant();
  });
  const setJurisdiction = async (jurisdiction?: string) => {
    const put = await admin("PUT", `/projects/${tenant.projectId}`, { name: "Local shop", controller: { name: "Shop AB" }, jurisdiction });
    expect(put.status).toBe(200);
  };
  const setRules = async (rules: unknown) => expect((await admin("PUT", `/projects/${tenant.projectId}/jurisdictions`, rules)).status).toBe(200);
  const localRegime = async () => (await localBootstrap(tenant.projectId, { cf: placeholder })).regime;

  it("takes the regime from the project's jurisdiction (SE: opt-in) and reports the location unknown", async () => {
    await setJurisdiction("SE");
    expect(await localRegime()).toEqual({ name: "opt-in", country: null, region: null, gpc: false, gpcApplied: false, prescribed: [] });
    await setJurisdiction("US-CA");
    expect(await localRegime()).toMatchObject({ name: "opt-out", prescribed: ["doNotSell", "limitSensitive"] });
    await setJurisdiction("jp");
    expect((await localRegime()).name).toBe("notice");
  });

  it("without a jurisdiction (or one that names no country), takes the strictest regime the rules use", async () => {
    for (const jurisdiction of [undefined, "Somewhere"]) {
      await setJurisdiction(jurisdiction);
      const cases: Array<[unknown, string]> = [
        [(await admin("GET", "/jurisdiction-presets")).body.items[0].rules, "opt-in"],
        [{ rules: [{ area: "US", regime: "opt-out" }], rest: "notice" }, "opt-out"],
        [{ rules: [], rest: "notice" }, "notice"],
        [{ rules: [{ area: "CH", regime: "notice" }], rest: "opt-in" }, "opt-in"],
      ];
      for (const [rules, expected] of cases) {
        await setRules(rules);
        expect({ jurisdiction, rules, name: (await localRegime()).name }).toEqual({ jurisdiction, rules, name: expected });
      }
    }
  });

  it("a forced regime still wins, and a real location still decides", async () => {
    await setJurisdiction("SE");
    await setRules((await admin("GET", "/jurisdiction-presets")).body.items[0].rules);
    expect((await localBootstrap(tenant.projectId, { cf: placeholder, body: { regime: "notice" } })).regime.name).toBe("notice");
    expect((await localBootstrap(tenant.projectId, { cf: { country: "US", regionCode: "CA" } })).regime).toMatchObject({ name: "opt-out", country: "US" });
  });

  it("outside local development the same location is Texas like any other: opt-out", async () => {
    await setJurisdiction("SE");
    expect((await bootstrap(tenant.projectId, { cf: placeholder })).body.regime).toMatchObject({ name: "opt-out", country: "US", region: "TX" });
  });
});

describe("jurisdiction rules: admin API", () => {
  let tenant: WidgetTenant;
  beforeAll(async () => {
    tenant = await widgetTenant();
  });

  it("reads the recommended preset until set, and lists the presets", async () => {
    const read = await admin("GET", `/projects/${tenant.projectId}/jurisdictions`);
    expect(read.status).toBe(200);
    expect(read.body.preset).toBe("recommended");
    expect(read.body.rest).toBe("notice");
    expect(read.body.rules).toEqual(expect.arrayContaining([{ area: "EEA", regime: "opt-in" }, { area: "US-CA", regime: "opt-out" }]));
    const presets = await admin("GET", "/jurisdiction-presets");
    expect(presets.body.items.map((p: { name: string }) => p.name)).toEqual(["recommended", "opt-in-everywhere", "opt-in-outside-us"]);
    const strict = presets.body.items[1];
    const put = await admin("PUT", `/projects/${tenant.projectId}/jurisdictions`, strict.rules);
    expect(put.body.preset).toBe("opt-in-everywhere");
    expect((await admin("GET", `/projects/${tenant.projectId}/jurisdictions`)).body).toEqual({ ...strict.rules, refusalStandsSeconds: 15_778_800, preset: "opt-in-everywhere" });
  });

  it("refuses bad rules with field paths", async () => {
    const bad = await admin("PUT", `/projects/${tenant.projectId}/jurisdictions`, {
      rules: [
        { area: "Europe", regime: "opt-in" },
        { area: "US-CA", regime: "maybe" },
      ],
      rest: "opt-in",
    });
    expectProblem(bad, 400, "validation_failed");
    expect(problemOf(bad).errors!.map((e: { path: string }) => e.path).sort()).toEqual(["rules.0.area", "rules.1.regime"]);
    const twice = await admin("PUT", `/projects/${tenant.projectId}/jurisdictions`, {
      rules: [
        { area: "FR", regime: "opt-in" },
        { area: "FR", regime: "notice" },
      ],
      rest: "opt-in",
    });
    expectProblem(twice, 400, "validation_failed");
    expect(problemOf(twice).errors!.map((e: { path: string }) => e.path)).toEqual(["rules.1.area"]);
    expectProblem(await admin("PUT", `/projects/${tenant.projectId}/jurisdictions`, { rules: [] }), 400, "validation_failed");
    expectProblem(await admin("PUT", `/projects/prj_unknown/jurisdictions`, { rules: [], rest: "notice" }), 404, "not_found");
    expectProblem(await call("GET", `/admin/v1/projects/${tenant.projectId}/jurisdictions`, { token: tenant.token }), 401, "unauthorized");
  });
});

describe("Consent Mode", () => {
  let tenant: WidgetTenant;
  beforeAll(async () => {
    tenant = await widgetTenant();
  });

  it("keeps per-project settings, off until set, validated", async () => {
    const path = `/projects/${tenant.projectId}/consent-mode`;
    expect((await admin("GET", path)).body).toEqual({ enabled: false, waitForUpdate: 500, urlPassthrough: false, adsDataRedaction: true });
    const settings = { enabled: true, waitForUpdate: 1000, urlPassthrough: true, adsDataRedaction: false };
    expect((await admin("PUT", path, settings)).body).toEqual(settings);
    expect((await admin("GET", path)).body).toEqual(settings);
    const bad = await admin("PUT", path, { ...settings, waitForUpdate: -1, extra: 1 });
    expectProblem(bad, 400, "validation_failed");
    expect(problemOf(bad).errors!.map((e: { path: string }) => e.path).sort()).toEqual(["extra", "waitForUpdate"]);
    const reply = await bootstrap(tenant.projectId, { cf: { country: "SE" } });
    expect(reply.body.consentMode).toMatchObject(settings);
  });

  it("derives region-scoped defaults from the rules: denied under opt-in for what needs consent, granted elsewhere", async () => {
    const { defaults } = (await bootstrap(tenant.projectId)).body.consentMode;
    expect(defaults).toHaveLength(3);
    const [optIn, optOut, rest] = defaults;
    expect(optIn.region).toEqual(expect.arrayContaining(["DE", "SE", "NO", "GB", "CH"]));
    expect(optIn).toMatchObject({
      ad_storage: "denied",
      ad_user_data: "denied",
      ad_personalization: "denied",
      analytics_storage: "denied",
      personalization_storage: "denied",
      functionality_storage: "granted",
      security_storage: "granted",
    });
    expect(optOut.region).toEqual(expect.arrayContaining(["US-CA", "US-CO", "US-VA"]));
    expect(Object.values({ ...optOut, region: undefined }).filter((v) => v === "denied")).toEqual([]);
    expect(rest.region).toBeUndefined();
    expect(rest.ad_storage).toBe("granted");
  });

  it("denies under opt-in any type a consent purpose maps, and a country's rule beats its group's", () => {
    const rules = { rules: [{ area: "EEA", regime: "opt-in" as const }, { area: "FR", regime: "notice" as const }], rest: "opt-in" as const };
    const areas = effectiveAreas(rules);
    expect(areas.get("FR")).toBe("notice");
    expect(areas.get("DE")).toBe("opt-in");
    const [inEea, inFrance, elsewhere] = consentDefaults(rules, [{ legalGround: "consent", consentMode: ["functionality_storage"] }]);
    expect(inEea.region).not.toContain("FR");
    expect(inEea.functionality_storage).toBe("denied");
    expect(inFrance).toMatchObject({ region: ["FR"], functionality_storage: "granted", ad_storage: "granted" });
    expect(elsewhere).toMatchObject({ functionality_storage: "denied", security_storage: "granted" });
    expect(resolveRegime(defaultRules, "FR").matched).toBe("EEA");
  });

  it("denies by default, where a state's law asks consent for sensitive data, the types only sensitive purposes map", () => {
    const purposes = [
      { legalGround: "consent" as const, consentMode: ["ad_storage" as const] },
      { legalGround: "consent" as const, consentMode: ["personalization_storage" as const, "ad_storage" as const], sensitive: true },
    ];
    const rows = consentDefaults(defaultRules, purposes);
    const rowOf = (area: string) => rows.find((row) => row.region?.includes(area))!;
    // Virginia, Colorado, Texas: the store finder's personalisation waits for consent; ads, mapped by a purpose that
    // is not sensitive too, run until the visitor opts out.
    for (const state of ["US-VA", "US-CO", "US-CT", "US-TX"]) {
      expect({ state, ...rowOf(state), region: undefined }).toMatchObject({ state, personalization_storage: "denied", ad_storage: "granted", analytics_storage: "granted" });
    }
    // California, Utah, Iowa: an opt-out for sensitive data too, so everything starts granted.
    for (const state of ["US-CA", "US-UT", "US-IA"]) {
      expect({ state, ...rowOf(state), region: undefined }).toMatchObject({ state, personalization_storage: "granted", ad_storage: "granted" });
    }
    // Without a sensitive purpose the opt-out states share one row, as before.
    const plain = consentDefaults(defaultRules, [purposes[0]]);
    expect(plain.filter((row) => row.region?.includes("US-VA") || row.region?.includes("US-CA"))).toHaveLength(1);
  });

  it("maps purposes to the seven consent types, validated", async () => {
    const base = { referenceId: "video", name: "Video", legalGround: "consent", controllers: [tenant.controller] };
    const bad = await tenant.api("POST", "/configurations/purposes", { ...base, consentMode: ["ad_storag", "analytics_storage"] });
    expectProblem(bad, 400, "validation_failed");
    expect(problemOf(bad).errors!.map((e: { path: string }) => e.path)).toEqual(["consentMode.0"]);
    const twice = await tenant.api("POST", "/configurations/purposes", { ...base, consentMode: ["ad_storage", "ad_storage"] });
    expectProblem(twice, 400, "validation_failed");
    const none = await tenant.api("POST", "/configurations/purposes", base);
    expect(none.status).toBe(201);
    expect(none.body.consentMode).toEqual([]);
    const put = await tenant.api("PUT", `/configurations/purposes/${none.body.purposeId}`, {
      ...base,
      consentMode: ["personalization_storage"],
      requireNewConsent: false,
    });
    expect(put.body.consentMode).toEqual(["personalization_storage"]);
    const versions = await tenant.api("GET", `/configurations/purposes/${none.body.purposeId}/versions`);
    expect(versions.body.items[0].consentMode).toEqual(["personalization_storage"]);
    const configuration = await call("GET", "/privacy/v1/configurations", { token: tenant.token });
    expect(configuration.body.purposes.find((p: { referenceId: string }) => p.referenceId === "video")!.consentMode).toEqual(["personalization_storage"]);
  });
});

describe("edge cache of the configuration", () => {
  let tenant: WidgetTenant;
  beforeAll(async () => {
    tenant = await widgetTenant();
  });

  const version = async () =>
    (await env.DB.prepare("SELECT config_version AS v FROM projects WHERE id = ?").bind(tenant.projectId).first<{ v: number }>())!.v;
  const names = async () => (await bootstrap(tenant.projectId)).body.configuration.purposes.map((p: { name: string }) => p.name);

  it("serves the cached document while the version stands, and a new one after any change", async () => {
    expect(await names()).toEqual(["Marketing", "Analytics"]);
    // A change behind the API's back, with the version put back: the cache still answers (it was used).
    const at = await version();
    await env.DB.batch([
      env.DB.prepare("UPDATE purposes SET content = json_set(content, '$.name', 'Changed in D1') WHERE id = ?").bind(tenant.analytics),
      env.DB.prepare("UPDATE projects SET config_version = ? WHERE id = ?").bind(at, tenant.projectId),
    ]);
    expect(await names()).toEqual(["Marketing", "Analytics"]);
    // Any change through the API bumps the version (D1 triggers), so the next bootstrap reads D1 again.
    await admin("PUT", `/projects/${tenant.projectId}`, { name: "Renamed shop", controller: { name: "Example AB" } });
    expect(await version()).toBeGreaterThan(at);
    const reply = await bootstrap(tenant.projectId);
    expect(reply.body.configuration.project.name).toBe("Renamed shop");
    expect(reply.body.configuration.purposes[1].name).toBe("Changed in D1");
  });

  it("follows every kind of configuration change", async () => {
    const changes: Array<[string, () => Promise<unknown>, (body: any) => unknown, unknown]> = [
      [
        "purpose",
        () =>
          tenant.api("PUT", `/configurations/purposes/${tenant.analytics}`, {
            referenceId: "analytics",
            name: "Analytics v2",
            legalGround: "legitimate_interests",
            controllers: [tenant.controller],
            requireNewConsent: true,
          }),
        (b) => [b.configuration.purposes[1].name, b.configuration.purposes[1].version],
        ["Analytics v2", "2"],
      ],
      [
        "data group",
        () => tenant.api("PUT", `/configurations/data-groups/${tenant.dataGroupId}`, { referenceId: "email", name: "E-mail (renamed)" }),
        (b) => b.configuration.purposes[0].dataGroups[0].name,
        "E-mail (renamed)",
      ],
      [
        "party",
        () => tenant.api("PUT", `/parties/${tenant.adPartner}`, { referenceId: "ad-partner", type: "company", details: { name: "New partner" } }),
        (b) => b.configuration.purposes[0].recipients[0].details.name,
        "New partner",
      ],
      [
        "new purpose",
        () => tenant.api("POST", "/configurations/purposes", { referenceId: "extra", name: "Extra", legalGround: "consent", controllers: [tenant.controller] }),
        (b) => b.configuration.purposes.length,
        3,
      ],
      [
        "project metadata",
        () => tenant.api("PUT", "", { name: "Via the privacy API", controller: { name: "Example AB" }, defaultLanguage: "sv" }),
        (b) => [b.configuration.project.name, b.language],
        ["Via the privacy API", "sv"],
      ],
      [
        "jurisdiction rules",
        () => admin("PUT", `/projects/${tenant.projectId}/jurisdictions`, { rules: [], rest: "opt-out" }),
        (b) => b.consentMode.defaults.length,
        1,
      ],
      [
        "consent mode",
        () => admin("PUT", `/projects/${tenant.projectId}/consent-mode`, { enabled: true, waitForUpdate: 250, urlPassthrough: false, adsDataRedaction: true }),
        (b) => b.consentMode.waitForUpdate,
        250,
      ],
    ];
    let fingerprint = (await bootstrap(tenant.projectId)).body.fingerprint;
    for (const [what, change, read, expected] of changes) {
      const before = await version();
      const result = (await change()) as { status: number };
      expect({ what, ok: result.status === 200 || result.status === 201 }).toEqual({ what, ok: true });
      expect({ what, bumped: (await version()) > before }).toEqual({ what, bumped: true });
      const body = (await bootstrap(tenant.projectId)).body;
      expect({ what, value: read(body) }).toEqual({ what, value: expected });
      if (what === "purpose" || what === "new purpose") {
        expect(body.fingerprint).not.toBe(fingerprint);
        fingerprint = body.fingerprint;
      }
    }
  });
});
