import { beforeAll, describe, expect, it } from "vitest";
import { english } from "../../shared/i18n/strings";
import { shippedStrings } from "../../shared/i18n/shipped";
import { tcfEnglish, tcfStrings } from "../../shared/i18n/tcf";
import { bootstrap, widgetTenant, type WidgetTenant } from "./bootstrap-fixture";
import { call, expectProblem } from "./helpers";

/*
 * The widget's words in the bootstrap: negotiated at the edge (docs/languages.md#how-the-language-is-chosen), the configuration's texts
 * following the same choice, and a project's own wording (overrides, added languages) through the API.
 */
const de = shippedStrings.de;
const fields = (reply: { body: any }) => (reply.body.errors as { path: string; code: string }[]).map((e) => `${e.path} ${e.code}`).sort();

describe("bootstrap: the widget's words", () => {
  let tenant: WidgetTenant;
  beforeAll(async () => {
    tenant = await widgetTenant();
  });

  it("sends every string in the chosen language, and the texts in it where the project has them", async () => {
    const reply = await bootstrap(tenant.projectId, { body: { languages: ["sv-SE"] } });
    expect(reply.body.language).toBe("sv");
    expect(reply.body.strings).toEqual(shippedStrings.sv);
    expect(reply.body.configuration.purposes[0].description).toEqual([{ language: "sv", text: "Erbjudanden för dig." }]);
  });

  it("negotiates from Accept-Language when the page sends no list, with BCP 47 fallbacks", async () => {
    const cases: [string, string][] = [
      ["zh-TW,en;q=0.5", "zh-Hant"],
      ["zh-CN", "zh-Hans"],
      ["pt-PT,pt;q=0.9", "pt"],
      ["pt-BR", "pt-BR"],
      ["nb-NO,no;q=0.9", "nb"],
      ["de-AT,de;q=0.9,en;q=0.1", "de"],
    ];
    for (const [header, expected] of cases) {
      const reply = await bootstrap(tenant.projectId, { headers: { "accept-language": header } });
      expect(reply.body.language, header).toBe(expected);
      expect(reply.body.strings.title, header).toBe(shippedStrings[expected].title);
    }
  });

  it("falls back to the project's default language when no preference is served", async () => {
    const project = await tenant.api("GET", "");
    const { projectId: _id, created: _c, updated: _u, ...rest } = project.body;
    const metadata = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== null));
    expect((await tenant.api("PUT", "", { ...metadata, defaultLanguage: "fi" })).status).toBe(200);
    const reply = await bootstrap(tenant.projectId, { body: { languages: ["tlh"] }, headers: { "accept-language": "x-klingon" } });
    expect(reply.body.language).toBe("fi");
    expect(reply.body.strings).toEqual(shippedStrings.fi);
    // No Finnish texts: the project's default has none either, so English.
    expect(reply.body.configuration.purposes[0].description[0].language).toBe("en");
    expect((await tenant.api("PUT", "", { ...metadata, defaultLanguage: "en" })).status).toBe(200);
  });
});

describe("a project's wording", () => {
  let tenant: WidgetTenant;
  beforeAll(async () => {
    tenant = await widgetTenant();
  });
  const german = () => bootstrap(tenant.projectId, { body: { languages: ["de-DE"] } });

  it("overrides shipped strings, seen in the next bootstrap despite the edge cache, and back after DELETE", async () => {
    expect((await german()).body.strings.acceptAll).toBe(de.acceptAll);
    const put = await tenant.api("PUT", "/configurations/ui-strings/de", { strings: { acceptAll: "Alles klar", intro: "Bei {c} zählt Ihre Wahl." } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ language: "de", shipped: true, overrides: { acceptAll: "Alles klar" } });
    expect(put.body.strings.rejectAll).toBe(de.rejectAll);
    const after = await german();
    expect(after.body.strings).toEqual({ ...de, acceptAll: "Alles klar", intro: "Bei {c} zählt Ihre Wahl." });
    // Other languages keep the shipped words.
    expect((await bootstrap(tenant.projectId, { body: { languages: ["sv"] } })).body.strings).toEqual(shippedStrings.sv);
    const read = await tenant.api("GET", "/configurations/ui-strings/DE");
    expect(read.body.overrides).toEqual({ acceptAll: "Alles klar", intro: "Bei {c} zählt Ihre Wahl." });
    expect((await tenant.api("DELETE", "/configurations/ui-strings/de")).status).toBe(204);
    expect((await german()).body.strings).toEqual(de);
    expectProblem(await tenant.api("DELETE", "/configurations/ui-strings/de"), 404, "not_found");
  });

  it("adds a language the widget does not ship, complete, which the bootstrap then negotiates", async () => {
    const greenlandic = Object.fromEntries(Object.entries(english).map(([key, text]) => [key, `KL ${text}`]));
    const put = await tenant.api("PUT", "/configurations/ui-strings/kl", { strings: greenlandic });
    expect(put.status).toBe(200);
    expect(put.body.shipped).toBe(false);
    const reply = await bootstrap(tenant.projectId, { body: { languages: ["kl-GL", "da"] } });
    expect(reply.body.language).toBe("kl");
    expect(reply.body.strings).toEqual(greenlandic);
    const list = await tenant.api("GET", "/configurations/ui-strings");
    expect(list.body.shippedLanguages).toContain("zh-Hant");
    expect(list.body.items).toEqual([{ language: "kl", shipped: false, overrides: greenlandic, updated: expect.any(String) }]);
    // Another project never sees it.
    const other = await widgetTenant();
    expect((await bootstrap(other.projectId, { body: { languages: ["kl-GL", "da"] } })).body.language).toBe("da");
    expectProblem(await other.api("GET", "/configurations/ui-strings/kl"), 404, "not_found");
  });

  it("keeps its canonical tag: zh-hant-tw is zh-Hant-TW, and the shipped zh-Hant lies under it", async () => {
    const put = await tenant.api("PUT", "/configurations/ui-strings/zh-hant-tw", {
      strings: Object.fromEntries(Object.entries(shippedStrings["zh-Hant"]).map(([k, v]) => [k, k === "ok" ? "好" : v])),
    });
    expect(put.status).toBe(200);
    expect(put.body.language).toBe("zh-Hant-TW");
    const reply = await bootstrap(tenant.projectId, { body: { languages: ["zh-Hant-TW"] } });
    expect(reply.body.language).toBe("zh-Hant-TW");
    expect(reply.body.strings.ok).toBe("好");
  });

  it("refuses unknown keys, lost or added placeholders, empty or long texts, bad tags and incomplete new languages", async () => {
    const bad = await tenant.api("PUT", "/configurations/ui-strings/de", {
      strings: { acceptEverything: "Ja", intro: "Wir nutzen Ihre Daten.", thisSite: "{c} hier", save: " ", title: "x".repeat(501) },
    });
    expectProblem(bad, 400, "validation_failed");
    expect(fields(bad)).toEqual([
      "strings.acceptEverything unknown_string_key",
      "strings.intro placeholder_mismatch",
      "strings.save invalid_length",
      "strings.thisSite placeholder_mismatch",
      "strings.title invalid_length",
    ]);
    const tag = await tenant.api("PUT", "/configurations/ui-strings/not_a_tag", { strings: {} });
    expectProblem(tag, 400, "validation_failed");
    expect(fields(tag)).toEqual(["path.language invalid_language_tag"]);
    const incomplete = await tenant.api("PUT", "/configurations/ui-strings/tlh", { strings: { title: "Qapla'" } });
    expectProblem(incomplete, 400, "validation_failed");
    expect(fields(incomplete)).toHaveLength(Object.keys(english).length - 1);
    expect(fields(incomplete)).toContain("strings.acceptAll required");
    expectProblem(await tenant.api("PUT", "/configurations/ui-strings/de", { strings: { title: 7 } }), 400, "validation_failed");
    expect((await german()).body.strings).toEqual(de);
  });

  it("needs a credential (scopes per caller: test/security/authorization-matrix.test.ts)", async () => {
    expectProblem(await call("GET", `/privacy/v2/projects/${tenant.projectId}/configurations/ui-strings`, {}), 401, "unauthorized");
  });
});

describe("a project's wording of the TCF layers' own words (docs/languages.md#a-projects-own-words, docs/tcf.md#what-each-layer-shows-and-why)", () => {
  let tenant: WidgetTenant;
  beforeAll(async () => {
    tenant = await widgetTenant();
  });
  const german = () => bootstrap(tenant.projectId, { body: { languages: ["de-DE"] } });
  const tcfDe = Object.fromEntries(Object.entries(tcfStrings.de!).map(([key, text]) => [`tcf.${key}`, text]));

  it("lists them as tcf.<key> beside the widget's words, in the language's shipped words; the bootstrap sends only the ones set", async () => {
    const read = await tenant.api("GET", "/configurations/ui-strings/de");
    expect(read.body.defaults).toEqual({ ...de, ...tcfDe });
    expect(Object.keys((await tenant.api("GET", "/configurations/ui-strings/en")).body.defaults).filter((key) => key.startsWith("tcf."))).toEqual(
      Object.keys(tcfEnglish).map((key) => `tcf.${key}`),
    );
    expect((await german()).body.strings).toEqual(de);
    const own = { "tcf.vendorList": "Unsere Werbepartner", "tcf.vendorCount": "Wir und {c} Werbepartner verarbeiten Daten für diese Zwecke." };
    const put = await tenant.api("PUT", "/configurations/ui-strings/de", { strings: own });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ overrides: own, strings: { ...de, ...tcfDe, ...own }, defaults: { ...de, ...tcfDe } });
    expect((await german()).body.strings).toEqual({ ...de, ...own });
    expect((await bootstrap(tenant.projectId, { body: { languages: ["sv"] } })).body.strings).toEqual(shippedStrings.sv);
  });

  it("holds them to the same rules, and has no key for IAB's names of purposes, features and stacks", async () => {
    const bad = await tenant.api("PUT", "/configurations/ui-strings/de", {
      strings: { "tcf.vendorCount": "Wir und unsere Partner", "tcf.retention": "{d} Tage", "tcf.features": " ", "tcf.purposes.1": "Cookies", "tcf.stack1": "Werbung" },
    });
    expectProblem(bad, 400, "validation_failed");
    expect(fields(bad)).toEqual([
      "strings.tcf.features invalid_length",
      "strings.tcf.purposes.1 unknown_string_key",
      "strings.tcf.retention placeholder_mismatch",
      "strings.tcf.stack1 unknown_string_key",
      "strings.tcf.vendorCount placeholder_mismatch",
    ]);
    expect((bad.body as unknown as { errors: { path: string; message: string }[] }).errors.find((e) => e.path === "strings.tcf.purposes.1")!.message).toMatch(/Appendix A/);
    // A language the widget does not ship needs the widget's words; the TCF layers fall back to its language's own.
    const greenlandic = Object.fromEntries(Object.entries(english).map(([key, text]) => [key, `KL ${text}`]));
    expect((await tenant.api("PUT", "/configurations/ui-strings/kl", { strings: greenlandic })).status).toBe(200);
  });
});
