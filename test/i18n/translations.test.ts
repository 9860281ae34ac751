import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { gdprTerms, type GdprTermKey } from "../../shared/i18n/gdpr-terms";
import { blockingEnglish, blockingStrings } from "../../shared/i18n/blocking";
import { tcfEnglish, tcfStrings } from "../../shared/i18n/tcf";
import { centerEnglish, centerStrings, type CenterKey } from "../../shared/i18n/privacy-center";
import { shippedStrings } from "../../shared/i18n/shipped";
import { english, type StringKey, type Strings } from "../../shared/i18n/strings";
import { sameAsEnglish, sameEverywhere } from "./same-as-english";

/*
 * Every language module in shared/i18n/languages/ (found by file name, so a new file is checked without registering
 * it) against the English reference: same keys in the same order, the same `{…}` placeholders, nothing left in
 * English, the GDPR's own role and legal-ground terms in the EU languages (shared/i18n/gdpr-terms.ts), the first layer
 * naming the buttons by their real labels, and button labels short enough for a 320 px phone.
 */
const folder = fileURLToPath(new URL("../../shared/i18n/languages/", import.meta.url));
const tags = readdirSync(folder)
  .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
  .map((file) => file.slice(0, -".ts".length))
  .sort();

const keys = Object.keys(english) as StringKey[];

/**
 * Longest label, in characters, per button. The first layer's choice buttons share a row on a 320 px phone; the
 * others stand alone (about 36 characters fit a line there). The Chromium layout test is the exact check.
 */
const buttonMaxLength: Partial<Record<StringKey, number>> = {
  acceptAll: 24,
  rejectAll: 24,
  save: 24,
  customize: 24,
  close: 32,
  details: 32,
  object: 32,
  retry: 32,
  ok: 32,
  downloadReceipt: 32,
  /** A tag beside a purpose's name. */
  new: 16,
  /** The dialog's heading, and alone on the first layer as the button that opens the preferences (notice-only). */
  title: 40,
};

/** The notices name these buttons, so they must quote their labels exactly. */
const namedButtons: [StringKey, StringKey][] = [
  ["noticeOptIn", "customize"],
  ["noticeOptOut", "title"],
  ["noticeOnly", "title"],
];

const placeholders = (text: string) => (text.match(/\{[^{}]*\}/g) ?? []).sort();

/** Compared as a reader sees it: typographic apostrophes, no-break spaces and Romanian cedillas don't matter. */
const normalize = (text: string) =>
  text
    .normalize("NFC")
    .replace(/[’ʼ‘]/g, "'")
    .replace(/[\u00a0\u202f]/g, " ")
    .replace(/\s+/g, " ")
    .replace(/[şŞ]/g, (c) => (c === "ş" ? "ș" : "Ș"))
    .replace(/[ţŢ]/g, (c) => (c === "ţ" ? "ț" : "Ț"))
    .toLowerCase()
    .replace(/ς/g, "σ");

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `term` occurs in `label` as whole words, ignoring case. */
const containsTerm = (label: string, term: string) =>
  new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])${escape(normalize(term))}(?![\\p{L}\\p{M}\\p{N}])`, "u").test(normalize(label));

/** Everything wrong with one language module, as sentences; empty when it passes. */
function problemsOf(tag: string, strings: unknown): string[] {
  if (typeof strings !== "object" || strings === null || Array.isArray(strings)) {
    return [`default export is ${Array.isArray(strings) ? "an array" : typeof strings}, not an object of named strings`];
  }
  const table = strings as Record<string, unknown>;
  const problems: string[] = [];
  const present = Object.keys(table);
  for (const key of keys) if (!(key in table)) problems.push(`${key}: missing`);
  for (const key of present) if (!(key in english)) problems.push(`${key}: not a key of English`);
  const known = present.filter((key) => key in english);
  if (known.join() !== keys.filter((key) => key in table).join()) problems.push("keys are not in English's order");

  const allowedSame = new Set([...sameEverywhere, ...(sameAsEnglish[tag] ?? [])]);
  for (const key of keys) {
    const text = table[key];
    if (text === undefined) continue;
    if (typeof text !== "string") {
      problems.push(`${key}: not a string`);
      continue;
    }
    if (text.trim() === "") problems.push(`${key}: empty`);
    else if (text.trim() !== text) problems.push(`${key}: leading or trailing whitespace`);
    const want = placeholders(english[key]).join(" ");
    const got = placeholders(text).join(" ");
    if (got !== want) problems.push(`${key}: placeholders ${got || "(none)"} instead of ${want || "(none)"}`);
    const strays = text.replace(/\{[^{}]*\}/g, "");
    if (/[{}]/.test(strays)) problems.push(`${key}: a stray brace`);
    if (normalize(text) === normalize(english[key]) && !allowedSame.has(key)) problems.push(`${key}: left in English`);
    const max = buttonMaxLength[key];
    const length = [...text].length;
    if (max !== undefined && length > max) problems.push(`${key}: button label of ${length} characters (at most ${max})`);
  }

  for (const [notice, button] of namedButtons) {
    const label = table[button];
    const text = table[notice];
    if (typeof label === "string" && typeof text === "string" && !text.includes(label)) {
      problems.push(`${notice}: does not name the button ${button} as labelled ("${label}")`);
    }
  }

  const terms = tag in gdprTerms ? gdprTerms[tag as keyof typeof gdprTerms] : undefined;
  for (const [key, term] of Object.entries(terms ?? {}) as [GdprTermKey, string][]) {
    const label = table[key];
    if (typeof label === "string" && !containsTerm(label, term)) {
      problems.push(`${key}: "${label}" lacks the Regulation's term "${term}"`);
    }
  }
  return problems;
}

describe("the checks themselves", () => {
  it("find language modules", () => {
    expect(tags.length).toBeGreaterThan(0);
  });

  it("catch each kind of broken translation", async () => {
    const de = { ...english, ...Object.fromEntries(keys.map((key) => [key, `${english[key]} (de)`])) } as Record<string, string>;
    de.controller = "Verantwortlicher";
    de.processor = "Auftragsverarbeiter";
    de.recipient = "Empfänger";
    de.consent = "Ihre Einwilligung";
    de.contract = "Erfüllung eines Vertrags";
    de.legitimateInterests = "Berechtigte Interessen";
    de.legalObligation = "Erfüllung einer rechtlichen Verpflichtung";
    de.acceptAll = "Alle akzeptieren";
    de.rejectAll = "Alle ablehnen";
    de.save = "Auswahl speichern";
    de.customize = "Anpassen";
    de.close = "Schließen";
    de.details = "Details";
    de.object = "Widersprechen";
    de.retry = "Erneut versuchen";
    de.new = "Neu";
    de.downloadReceipt = "Beleg herunterladen";
    de.title = "Ihre Datenschutzeinstellungen";
    de.noticeOptIn = "{c} möchte … unter Anpassen …";
    de.noticeOptOut = "{c} nutzt … unter Ihre Datenschutzeinstellungen …";
    de.noticeOnly = "{c} nutzt … unter Ihre Datenschutzeinstellungen …";
    expect(problemsOf("de", de)).toEqual([]);

    const broken = (change: (table: Record<string, string>) => void) => {
      const table = { ...de };
      change(table);
      return problemsOf("de", table);
    };
    expect(problemsOf("de", english.title)).toEqual([expect.stringContaining("not an object")]);
    expect(broken((t) => delete t.save)).toEqual(["save: missing"]);
    expect(broken((t) => (t.colour = "Farbe"))).toEqual(["colour: not a key of English"]);
    expect(broken((t) => (t.intro = t.intro.replace("{c}", "Wir")))).toEqual([expect.stringMatching(/^intro: placeholders/)]);
    expect(broken((t) => (t.intro += " {c}"))).toEqual([expect.stringMatching(/^intro: placeholders/)]);
    expect(broken((t) => (t.intro = t.intro.replace("{c}", "{C}")))).toEqual([expect.stringMatching(/^intro: placeholders/)]);
    expect(broken((t) => (t.intro = t.intro.replace("{c}", "{c")))).toEqual([
      expect.stringMatching(/^intro: placeholders/),
      "intro: a stray brace",
    ]);
    expect(broken((t) => (t.retry = "{x}"))).toEqual([expect.stringMatching(/^retry: placeholders/)]);
    expect(broken((t) => (t.rejectAll = english.rejectAll))).toEqual(["rejectAll: left in English"]);
    expect(broken((t) => (t.ok = english.ok))).toEqual([]);
    // German writes "Details" as English does (allowed for de above); French may not.
    expect(problemsOf("fr", de)).toContain("details: left in English");
    expect(broken((t) => (t.close = ""))).toEqual(["close: empty"]);
    expect(broken((t) => (t.close = " Schließen"))).toEqual(["close: leading or trailing whitespace"]);
    expect(broken((t) => (t.acceptAll = "Alle Cookies und Dienste akzeptieren"))).toEqual([
      "acceptAll: button label of 36 characters (at most 24)",
    ]);
    expect(broken((t) => (t.noticeOptIn = t.noticeOptIn.replace("Anpassen", "Einstellungen")))).toEqual([
      expect.stringMatching(/^noticeOptIn: does not name the button customize/),
    ]);
    expect(broken((t) => (t.title = "Datenschutzoptionen"))).toEqual([
      expect.stringMatching(/^noticeOptOut: does not name/),
      expect.stringMatching(/^noticeOnly: does not name/),
    ]);
    expect(broken((t) => (t.controller = "Verantwortliche Stelle"))).toEqual([
      expect.stringMatching(/^controller: "Verantwortliche Stelle" lacks/),
    ]);
    expect(broken((t) => (t.consent = "Zustimmung"))).toEqual([expect.stringMatching(/^consent: .* lacks/)]);
    expect(broken((t) => (t.legitimateInterests = "Berechtigtes Interesse"))).toEqual([
      expect.stringMatching(/^legitimateInterests: .* lacks/),
    ]);
    // Case, apostrophes and no-break spaces don't matter; whole words do.
    expect(containsTerm("EXÉCUTION D’UN CONTRAT", "exécution d'un contrat")).toBe(true);
    expect(containsTerm("Sous-traitants", "sous-traitant")).toBe(false);
    expect(containsTerm("Υπεύθυνος επεξεργασίας", "υπεύθυνος επεξεργασίας")).toBe(true);
    expect(containsTerm("Consimţământ", "consimțământ")).toBe(true);
    const reordered = Object.fromEntries(Object.entries(de).reverse());
    expect(problemsOf("de", reordered)).toEqual(["keys are not in English's order"]);
  });
});

describe("the GDPR reference list", () => {
  const eu = "bg cs da de el en es et fi fr ga hr hu it lt lv mt nl pl pt ro sk sl sv".split(" ");

  it("has every EU language and every role and legal-ground key", () => {
    expect(Object.keys(gdprTerms).sort()).toEqual(eu);
    for (const terms of Object.values(gdprTerms)) {
      expect(Object.keys(terms).sort()).toEqual(Object.keys(gdprTerms.en).sort());
      for (const term of Object.values(terms)) expect(term.trim()).toBe(term);
    }
  });

  it("agrees with the English reference strings", () => {
    for (const [key, term] of Object.entries(gdprTerms.en)) expect(containsTerm(english[key as GdprTermKey], term)).toBe(true);
  });
});

describe.each(tags)("language %s", (tag) => {
  it("is complete, keeps its placeholders, uses the GDPR's terms and fits the buttons", async () => {
    const module = (await import(/* @vite-ignore */ `${folder}${tag}.ts`)) as { default: unknown };
    // en.ts is the reference itself (strings.ts's `english`, re-exported), not a translation of it.
    if (tag === "en") expect(module.default).toEqual(english);
    else expect(problemsOf(tag, module.default)).toEqual([]);
  });
});

describe("US opt-out wording", () => {
  it("English says what California's CCPA prescribes (Civ. Code 1798.135(a))", () => {
    expect(english.doNotSell).toBe("Do Not Sell or Share My Personal Information");
    expect(english.limitSensitive).toBe("Limit the Use of My Sensitive Personal Information");
  });

  it.each(tags.filter((tag) => tag !== "en"))("%s has both in its own words, distinct from each other", async (tag) => {
    const strings = ((await import(/* @vite-ignore */ `${folder}${tag}.ts`)) as { default: Record<StringKey, string> }).default;
    for (const key of ["doNotSell", "limitSensitive"] as const) {
      expect(strings[key].trim().length, `${tag} ${key}`).toBeGreaterThan(8);
      expect(strings[key], `${tag} ${key}`).not.toBe(english[key]);
      expect(strings[key].trim(), `${tag} ${key}`).toBe(strings[key]);
    }
    expect(strings.doNotSell).not.toBe(strings.limitSensitive);
  });
});

/*
 * The privacy center's own words (shared/i18n/privacy-center.ts, one module per language in
 * shared/i18n/privacy-center/): every language the widget ships has them, with every key of English, the same
 * placeholders, and the longer sentences in its own words (English is the only language that may read as English).
 */
describe("privacy center words", () => {
  const centerKeys = Object.keys(centerEnglish) as CenterKey[];
  const shipped = Object.keys(shippedStrings).sort();
  const centerFolder = fileURLToPath(new URL("../../shared/i18n/privacy-center/", import.meta.url));
  const modules = readdirSync(centerFolder)
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
    .map((file) => file.slice(0, -".ts".length))
    .sort();
  /** Sentences a visitor reads as prose: left in English, they are an untranslated page. */
  const longer: CenterKey[] = ["intro", "codeSent", "extension", "codeText", "codeIgnore"];
  const englishLike = new Set(["en"]);

  it("covers every shipped language, each with a module of its own and registered", () => {
    expect(Object.keys(centerStrings).sort()).toEqual(shipped);
    expect(modules).toEqual(shipped.filter((tag) => tag !== "en"));
  });

  it.each(shipped)("%s has every key, English's placeholders and no longer sentence in English", (tag) => {
    const table = centerStrings[tag] as Record<string, unknown> | undefined;
    expect(table, tag).toBeDefined();
    const problems: string[] = [];
    for (const key of centerKeys) {
      const text = table?.[key];
      if (typeof text !== "string" || text.trim() === "") {
        problems.push(`${key}: missing or empty`);
        continue;
      }
      if (text.trim() !== text) problems.push(`${key}: leading or trailing whitespace`);
      const want = placeholders(centerEnglish[key]).join(" ");
      const got = placeholders(text).join(" ");
      if (got !== want) problems.push(`${key}: placeholders ${got || "(none)"} instead of ${want || "(none)"}`);
      if (/[{}]/.test(text.replace(/\{[^{}]*\}/g, ""))) problems.push(`${key}: a stray brace`);
      const articles = (centerEnglish[key].match(/Art\. (\d+)/g) ?? []).map((match) => match.slice("Art. ".length));
      for (const article of articles) if (!text.includes(article)) problems.push(`${key}: lacks article ${article}`);
    }
    for (const key of Object.keys(table ?? {})) if (!(key in centerEnglish)) problems.push(`${key}: not a key of English`);
    if (!englishLike.has(tag)) {
      for (const key of longer) {
        const text = table?.[key];
        if (typeof text === "string" && normalize(text) === normalize(centerEnglish[key])) problems.push(`${key}: left in English`);
      }
    }
    expect(problems).toEqual([]);
  });
});

/*
 * Word tables apart from the widget's own, one module per language in a folder of their own: the click-to-load
 * placeholders' (shared/i18n/blocking.ts: {v} the vendor or host, {c} the company, {p} the purposes) and the TCF
 * dialog's (shared/i18n/tcf.ts: {c} a number). Every language the widget ships has them, with every key of English,
 * its placeholders and none left in English; `more` adds a table's own checks.
 */
function wordTable(title: string, folder: string, reference: Record<string, string>, tables: Record<string, object>, more?: (tag: string, table: Record<string, string>) => string[]) {
  describe(title, () => {
    const tableKeys = Object.keys(reference);
    const shipped = Object.keys(shippedStrings).sort();
    const modules = readdirSync(fileURLToPath(new URL(`../../shared/i18n/${folder}/`, import.meta.url)))
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
      .map((file) => file.slice(0, -".ts".length))
      .sort();

    it("covers every shipped language, each with a module of its own and registered", () => {
      expect(Object.keys(tables).sort()).toEqual(shipped);
      expect(modules).toEqual(shipped.filter((tag) => tag !== "en"));
    });

    it.each(shipped)("%s has every key, English's placeholders, and its own words", (tag) => {
      const table = tables[tag] as Record<string, unknown> | undefined;
      expect(table, tag).toBeDefined();
      const problems: string[] = [];
      for (const key of tableKeys) {
        const text = table?.[key];
        if (typeof text !== "string" || text.trim() === "") {
          problems.push(`${key}: missing or empty`);
          continue;
        }
        if (text.trim() !== text) problems.push(`${key}: leading or trailing whitespace`);
        const want = placeholders(reference[key]!).join(" ");
        const got = placeholders(text).join(" ");
        if (got !== want) problems.push(`${key}: placeholders ${got || "(none)"} instead of ${want || "(none)"}`);
        if (/[{}]/.test(text.replace(/\{[^{}]*\}/g, ""))) problems.push(`${key}: a stray brace`);
        if (tag !== "en" && normalize(text) === normalize(reference[key]!)) problems.push(`${key}: left in English`);
      }
      for (const key of Object.keys(table ?? {})) if (!(key in reference)) problems.push(`${key}: not a key of English`);
      // The keys read differently: a language that says "video" for a map has copied one sentence.
      if (new Set(tableKeys.map((key) => table?.[key])).size !== tableKeys.length) problems.push("two keys share one sentence");
      problems.push(...(more?.(tag, table as Record<string, string>) ?? []));
      expect(problems).toEqual([]);
    });
  });
}

wordTable("placeholder words", "blocking", blockingEnglish, blockingStrings);
// The TCF first layer's note on objecting names the widget's Customize button, so it quotes that label exactly.
wordTable("TCF dialog words", "tcf", tcfEnglish, tcfStrings, (tag, table) => {
  const label = (shippedStrings as Record<string, Strings>)[tag]!.customize;
  return containsTerm(table.objectNote ?? "", label) ? [] : [`objectNote: does not name the button customize as labelled ("${label}")`];
});
