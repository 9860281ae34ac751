// The Google Tag Manager template (integrations/gtm/template.tpl): its sandboxed code run in Node against a stand-in
// of Tag Manager's sandbox (gtm/sandbox.ts) that checks every call against the template's declared permissions.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { AssentGlobal } from "../../widget/src/index";
import type { ConsentState } from "../../shared/browser/types";
import { consentTypes as sharedConsentTypes } from "../../shared/consent-mode/types";
import { consentTypes, PermissionDenied, runTemplate, unsupportedSyntax, urlMatches, type Page, type Run } from "./gtm/sandbox";
import { runScenario } from "./gtm/scenarios";
import { readTemplate, type Parameter } from "./gtm/template-file";

const folder = new URL("../../integrations/gtm/", import.meta.url);
const template = readTemplate(new URL("template.tpl", folder).pathname);

/** The page as far as the template sees it: its globals, and the widget's script, whose `window.assent` the test drives. */
function pageWithWidget(options: { stored?: ConsentState; loads?: boolean; debug?: boolean } = {}) {
  const listeners: Record<string, ((state: ConsentState) => void)[]> = {};
  const window: Record<string, unknown> = {};
  const scripts: string[] = [];
  const assent: Pick<AssentGlobal, "on" | "getConsent"> = {
    on(type, listener) {
      (listeners[type] ??= []).push(listener as (state: ConsentState) => void);
      return () => {};
    },
    getConsent: () => options.stored,
  };
  const page: Page = {
    window,
    debug: options.debug,
    loadScript(url, onLoad, onError) {
      scripts.push(url);
      if (options.loads === false) return queueMicrotask(onError);
      window.assent = assent;
      queueMicrotask(onLoad);
    },
  };
  const emit = (type: "ready" | "change", state: ConsentState) => listeners[type]?.forEach((listener) => listener(state));
  return { page, window, scripts, emit, listeners };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

const denied = Object.fromEntries(consentTypes.map((type) => [type, type === "security_storage" ? "granted" : "denied"]));
const grantedAll = Object.fromEntries(consentTypes.map((type) => [type, "granted"]));
/** Rows as the project's bootstrap has them (worker/consent-mode/defaults.ts): opt-in areas, then everywhere else. */
const fields = {
  projectId: "prj_0123456789ABCDEFGHJKMNPQRS",
  serviceOrigin: "https://assent.example.workers.dev",
  language: "",
  regionDefaults: [
    { region: "", ...grantedAll },
    { region: "fi, SE,US-CA", ...denied },
  ],
  waitForUpdate: "500",
  adsDataRedaction: true,
  urlPassthrough: false,
  eventName: "assent_consent_update",
};

const decision = (consents: Record<string, boolean>, consentMode: ConsentState["consentMode"]): ConsentState => ({
  identityId: "idn_1",
  consents,
  consentMode,
  purposes: [],
  regime: "opt-in",
});

async function run(overrides: Partial<typeof fields> = {}, page = pageWithWidget()): Promise<Run> {
  const result = runTemplate(template.code, template.permissions, { ...fields, ...overrides }, { page: page.page });
  await settled();
  return result;
}

const parameter = (name: string): Parameter => {
  const all = (list: Parameter[]): Parameter[] => list.flatMap((p) => [p, ...all(p.subParams ?? [])]);
  const found = all(template.parameters).find((p) => p.name === name);
  if (!found) throw new Error(`No field ${name}.`);
  return found;
};

describe("the template file", () => {
  it("has the gallery's sections, as a web tag", () => {
    expect(template.sections).toEqual(["TERMS_OF_SERVICE", "INFO", "TEMPLATE_PARAMETERS", "SANDBOXED_JS_FOR_WEB_TEMPLATE", "WEB_PERMISSIONS", "TESTS", "NOTES"]);
    expect(template.info).toMatchObject({ type: "TAG", containerContexts: ["WEB"] });
  });

  it("declares a permission for every API its code uses, and only what the code needs", () => {
    const required = [...template.code.matchAll(/require\('(\w+)'\)/g)].map((m) => m[1]).sort();
    const needs: Record<string, string | null> = {
      setDefaultConsentState: "access_consent",
      updateConsentState: "access_consent",
      gtagSet: "write_data_layer",
      injectScript: "inject_script",
      callInWindow: "access_globals",
      createQueue: "access_globals",
      logToConsole: "logging",
      queryPermission: null,
      encodeUriComponent: null,
      getType: null,
      JSON: null,
      makeNumber: null,
      makeString: null,
    };
    expect(required.filter((name) => !(name in needs))).toEqual([]);
    const declared = Object.keys(template.permissions).sort();
    expect(declared).toEqual([...new Set(required.map((name) => needs[name]).filter((p): p is string => !!p))].sort());
    expect(template.permissions.access_globals.keys).toEqual([
      { key: "assent.on", read: false, write: false, execute: true },
      { key: "assent.getConsent", read: false, write: false, execute: true },
      { key: "dataLayer", read: true, write: true, execute: false },
    ]);
    expect((template.permissions.access_consent.consentTypes as { consentType: string }[]).map((c) => c.consentType).sort()).toEqual([...consentTypes].sort());
    expect(template.permissions.write_data_layer.keyPatterns).toEqual(["ads_data_redaction", "url_passthrough"]);
    expect(template.permissions.logging.environments).toBe("debug");
  });

  it("refuses a wait_for_update under Google's 500 ms in the field, and requires a project and an https origin", () => {
    const accepts = (name: string, value: string) =>
      (parameter(name).valueValidators ?? []).every((v) => v.type !== "REGEX" || new RegExp(String(v.args![0])).test(value)) &&
      (value !== "" || !(parameter(name).valueValidators ?? []).some((v) => v.type === "NON_EMPTY"));
    expect(["500", "750", "2000", "10000"].map((v) => accepts("waitForUpdate", v))).toEqual([true, true, true, true]);
    expect(["0", "499", "-500", "5e2", ""].map((v) => accepts("waitForUpdate", v))).toEqual([false, false, false, false, false]);
    expect(accepts("projectId", fields.projectId)).toBe(true);
    expect(accepts("projectId", "")).toBe(false);
    expect(accepts("serviceOrigin", "https://consent.example.com")).toBe(true);
    expect(["http://consent.example.com", "https://consent.example.com/", "https://consent.example.com/widget"].map((v) => accepts("serviceOrigin", v))).toEqual([false, false, false]);
    expect(parameter("regionDefaults").paramTableColumns!.map((c) => c.param.name)).toEqual(["region", ...consentTypes]);
  });

  it("has gallery metadata: homepage, documentation, and versions with a commit and notes", () => {
    const metadata = readFileSync(new URL("metadata.yaml", folder), "utf8");
    expect(metadata).toMatch(/^homepage: "?https:\/\/\S+"?$/m);
    expect(metadata).toMatch(/^documentation: "?https:\/\/\S+"?$/m);
    const versions = [...metadata.matchAll(/^ {2}- sha: "?(\w*)"?\n {4}changeNotes: (.+)$/gm)];
    expect(versions.length).toBeGreaterThan(0);
    for (const [, sha, notes] of versions) {
      expect(sha).toMatch(/^([0-9a-f]{40})?$/);
      expect(notes.trim()).not.toBe("");
    }
  });
});

describe("on Consent Initialization", () => {
  it("sets each region's defaults, region-scoped ones first, all with wait_for_update", async () => {
    const result = await run();
    expect(result.defaults).toEqual([
      { region: ["FI", "SE", "US-CA"], ...denied, wait_for_update: 500 },
      { ...grantedAll, wait_for_update: 500 },
    ]);
    expect(result.consentIn("FI")).toEqual(denied);
    expect(result.consentIn("US-CA")).toEqual(denied);
    expect(result.consentIn("US-NY")).toEqual(grantedAll);
    expect(result.consentIn("JP")).toEqual(grantedAll);
  });

  it("never waits less than 500 ms, whatever the field says", async () => {
    expect((await run({ waitForUpdate: "200" })).defaults.map((d) => d.wait_for_update)).toEqual([500, 500]);
    expect((await run({ waitForUpdate: "soon" })).defaults.map((d) => d.wait_for_update)).toEqual([500, 500]);
    expect((await run({ waitForUpdate: "1500" })).defaults.map((d) => d.wait_for_update)).toEqual([1500, 1500]);
  });

  it("without rows: everything but security_storage denied everywhere", async () => {
    const result = await run({ regionDefaults: [] });
    expect(result.defaults).toEqual([{ ...denied, wait_for_update: 500 }]);
  });

  it("leaves a type a row does not set to the other rows", async () => {
    const result = await run({ regionDefaults: [{ region: "DE", ad_storage: "denied" } as never, { region: "", ...grantedAll }] });
    expect(result.defaults[0]).toEqual({ region: ["DE"], ad_storage: "denied", wait_for_update: 500 });
    expect(result.consentIn("DE")).toEqual({ ...grantedAll, ad_storage: "denied" });
  });

  it("sets ads_data_redaction and url_passthrough as the fields say", async () => {
    expect((await run()).gtagSets).toEqual([{ ads_data_redaction: true, url_passthrough: false }]);
    expect((await run({ adsDataRedaction: false, urlPassthrough: true })).gtagSets).toEqual([{ ads_data_redaction: false, url_passthrough: true }]);
  });

  it("then injects the classic widget from the service with the project (and language), once", async () => {
    const page = pageWithWidget();
    const result = await run({ language: "fi" }, page);
    expect(result.injected).toEqual(["https://assent.example.workers.dev/widget/assent.classic.js?project=prj_0123456789ABCDEFGHJKMNPQRS&lang=fi"]);
    expect(page.scripts).toEqual(result.injected);
    const order = result.calls.map((c) => c.api).filter((api) => ["setDefaultConsentState", "gtagSet", "injectScript"].includes(api));
    expect(order).toEqual(["setDefaultConsentState", "setDefaultConsentState", "gtagSet", "injectScript"]);
    expect(result.calls.find((c) => c.api === "injectScript")!.args[3]).toBe(result.injected[0]);
    expect(result.outcome).toBe("success");
    expect((await run({ language: "" })).injected[0]).toMatch(/\?project=prj_\w+$/);
  });

  it("loads from the operator's own domain with the permission as published: one pattern, the widget's path on any https host", async () => {
    expect(template.permissions.inject_script.urls).toEqual(["https://*/widget/assent.classic.js?project=*"]);
    for (const serviceOrigin of ["https://consent.shop.example", "https://assent.example.workers.dev", "https://shop.example:8443"]) {
      const result = await run({ serviceOrigin });
      expect({ serviceOrigin, injected: result.injected, outcome: result.outcome }).toEqual({
        serviceOrigin,
        injected: [`${serviceOrigin}/widget/assent.classic.js?project=${fields.projectId}`],
        outcome: "success",
      });
    }
  });

  it("the grant admits nothing but the widget: not another script on a shared domain, not http, not a path smuggled in the origin", async () => {
    const [pattern] = template.permissions.inject_script.urls as string[];
    // What the former `https://*.workers.dev/…` grant let through: any script of any tenant's Worker on the shared domain.
    expect(urlMatches(pattern, "https://other-tenant.workers.dev/evil.js")).toBe(false);
    expect(urlMatches(pattern, "https://other-tenant.workers.dev/widget/assent.js")).toBe(false);
    expect(urlMatches(pattern, "http://consent.shop.example/widget/assent.classic.js?project=prj_1")).toBe(false);
    expect(urlMatches(pattern, "https://consent.shop.example/widget/assent.classic.js")).toBe(false);
    // An origin field carrying a path (the field's own check refuses it; the grant holds even so): no script, the
    // defaults stand, the tag fails and says why in preview.
    const page = pageWithWidget({ debug: true });
    const result = await run({ serviceOrigin: "https://evil.example/x.js?" }, page);
    expect(page.scripts).toEqual([]);
    expect(result.defaults).toHaveLength(2);
    expect(result.outcome).toBe("failure");
    expect(result.logs.flat().join(" ")).toContain("https://evil.example/x.js?/widget/assent.classic.js");
  });

  it("a widget that does not load: the defaults stand and the tag fails", async () => {
    const result = await run({}, pageWithWidget({ loads: false }));
    expect(result.updates).toEqual([]);
    expect(result.outcome).toBe("failure");
  });
});

describe("on every decision", () => {
  it("updates Consent Mode with the types the widget reports and pushes the dataLayer event", async () => {
    const page = pageWithWidget();
    const result = await run({}, page);
    expect(Object.keys(page.listeners).sort()).toEqual(["change", "ready"]);
    page.emit("ready", decision({ marketing: false, analytics: false }, { ad_storage: "denied", analytics_storage: "denied" }));
    page.emit("change", decision({ marketing: false, analytics: true }, { ad_storage: "denied", analytics_storage: "granted" }));
    expect(result.updates).toEqual([
      { ad_storage: "denied", analytics_storage: "denied" },
      { ad_storage: "denied", analytics_storage: "granted" },
    ]);
    expect(result.consentIn("FI")).toEqual({ ...denied, analytics_storage: "granted" });
    expect(page.window.dataLayer).toEqual([
      { event: "assent_consent_update", assent: { consents: { marketing: false, analytics: false }, consentMode: { ad_storage: "denied", analytics_storage: "denied" } } },
      { event: "assent_consent_update", assent: { consents: { marketing: false, analytics: true }, consentMode: { ad_storage: "denied", analytics_storage: "granted" } } },
    ]);
  });

  it("tells a decision once, and keeps a page's existing dataLayer", async () => {
    const page = pageWithWidget();
    page.window.dataLayer = [{ event: "gtm.js" }];
    const result = await run({ eventName: "consent_changed" }, page);
    const state = decision({ analytics: true }, { analytics_storage: "granted" });
    page.emit("ready", state);
    page.emit("change", state);
    expect(result.updates).toEqual([{ analytics_storage: "granted" }]);
    expect(page.window.dataLayer).toEqual([{ event: "gtm.js" }, { event: "consent_changed", assent: { consents: { analytics: true }, consentMode: { analytics_storage: "granted" } } }]);
  });

  it("sends a returning visitor's stored decision, announced while the script ran, at once", async () => {
    const stored = decision({ marketing: true }, { ad_storage: "granted", ad_user_data: "granted", ad_personalization: "granted" });
    const result = await run({}, pageWithWidget({ stored }));
    expect(result.updates).toEqual([{ ad_storage: "granted", ad_user_data: "granted", ad_personalization: "granted" }]);
  });

  it("a decision that maps no type pushes the event without an update; values other than granted or denied are dropped", async () => {
    const page = pageWithWidget();
    const result = await run({}, page);
    page.emit("change", decision({ cart: true }, {}));
    page.emit("change", decision({ cart: false }, { analytics_storage: "maybe" as never, ad_storage: "denied" }));
    expect(result.updates).toEqual([{ ad_storage: "denied" }]);
    expect((page.window.dataLayer as unknown[]).length).toBe(2);
  });
});

describe("the sandbox stand-in enforces what Tag Manager does", () => {
  it("knows the consent types the service knows", () => {
    expect([...consentTypes]).toEqual([...sharedConsentTypes]);
  });

  const withoutGrant = (permission: string, edit: (grant: Record<string, unknown>) => void) => {
    const permissions = structuredClone(template.permissions);
    edit(permissions[permission]);
    return permissions;
  };

  it("a consent type without a write grant is refused", () => {
    const permissions = withoutGrant("access_consent", (g) => {
      g.consentTypes = (g.consentTypes as { consentType: string }[]).filter((c) => c.consentType !== "ad_storage");
    });
    expect(() => runTemplate(template.code, permissions, fields, { page: pageWithWidget().page })).toThrow(PermissionDenied);
  });

  it("a dataLayer key, a global or a script URL outside the grants is refused", async () => {
    const noPassthrough = withoutGrant("write_data_layer", (g) => void (g.keyPatterns = ["ads_data_redaction"]));
    expect(() => runTemplate(template.code, noPassthrough, fields, { page: pageWithWidget().page })).toThrow(/write_data_layer url_passthrough/);
    const noQueue = withoutGrant("access_globals", (g) => void (g.keys = (g.keys as { key: string }[]).filter((k) => k.key !== "dataLayer")));
    expect(() => runTemplate(template.code, noQueue, fields, { page: pageWithWidget().page })).toThrow(/access_globals readwrite dataLayer/);
    const check = "const injectScript = require('injectScript'); injectScript('https://evil.example/x.js', data.gtmOnSuccess, data.gtmOnFailure);";
    expect(() => runTemplate(check, template.permissions, {}, { page: pageWithWidget().page })).toThrow(/inject_script/);
  });

  it("a malformed consent command is refused: a lowercase or spelled-out region, a value other than granted or denied, region on an update", () => {
    const call = (line: string) => () =>
      runTemplate(`const setDefaultConsentState = require('setDefaultConsentState'); const updateConsentState = require('updateConsentState'); ${line}`, template.permissions, {}, { page: pageWithWidget().page });
    expect(call("setDefaultConsentState({ad_storage: 'denied', region: ['Europe']});")).toThrow(/region/);
    expect(call("setDefaultConsentState({ad_storage: 'denied', region: 'FI'});")).toThrow(/region/);
    expect(call("setDefaultConsentState({ad_storage: 'no'});")).toThrow(/neither/);
    expect(call("setDefaultConsentState({ad_storage: 'denied', wait_for_update: '500'});")).toThrow(/wait_for_update/);
    expect(call("updateConsentState({ad_storage: 'granted', region: ['FI']});")).toThrow(/region/);
    expect(call("setDefaultConsentState({ad_storage: 'denied', region: ['FI', 'US-CA'], wait_for_update: 500});")).not.toThrow();
  });

  it("only required APIs exist: no window, no JSON without require, no syntax the sandbox lacks", () => {
    const page = pageWithWidget().page;
    expect(() => runTemplate("require('sendPixel')('https://x.example');", {}, {}, { page })).toThrow(/no such API/);
    expect(() => runTemplate("JSON.stringify({});", {}, {}, { page })).toThrow(TypeError);
    expect(unsupportedSyntax("const a = new Date();")).toEqual(["new"]);
    expect(unsupportedSyntax("for (const k in o) {}")).toEqual(["for…in / for…of"]);
    expect(unsupportedSyntax("const r = /a+/;")).toEqual(["regular expression literals"]);
    expect(unsupportedSyntax("window.x = 1;")).toEqual(["the browser's globals"]);
    expect(unsupportedSyntax(template.code)).toEqual([]);
  });

  it("a tag ends once", () => {
    expect(() => runTemplate("data.gtmOnSuccess(); data.gtmOnFailure();", {}, {}, { page: pageWithWidget().page })).toThrow(/already ended/);
  });
});

describe("the template's own TESTS", () => {
  it("has scenarios", () => expect(template.scenarios.length).toBeGreaterThan(3));
  for (const scenario of template.scenarios) {
    it(scenario.name, () => runScenario(scenario, template.code, template.permissions));
  }
});
