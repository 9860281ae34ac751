import { describe, expect, it } from "vitest";
import { centerStrings } from "../../shared/i18n/privacy-center";
import { chooseDcs, segmentCount } from "../../worker/hub/encoding";
import { codeEmailText, codeSms, maxCodeSegments, type CodeMessage } from "../../worker/privacy-center/code-message";

/*
 * The one-time code's words in every language the widget ships (shared/i18n/privacy-center/<tag>.ts): the code comes
 * first (phones show the opening in notifications and offer it to autofill), and the SMS fits two segments, measured
 * with the hub's own GSM-7 / UCS-2 count (worker/hub/encoding.ts) as the hub bills it.
 */
const tags = Object.keys(centerStrings).sort();
const code = "482913";

const message = (tag: string, projectName: string): CodeMessage => ({ projectId: "prj_test", to: "+46701234567", code, projectName, strings: centerStrings[tag] });

/** 40 characters, a long company name; its letters are all in GSM-7's alphabet. */
const usualName = "Nordiska Fjällutrustning & Kläder i Umeå";
/** As long as a project's or a controller's name may be (200). */
const longestName = "Aktiebolaget ".repeat(16).slice(0, 200);

describe("the code's words", () => {
  it("measure what they claim to", () => {
    expect(Array.from(usualName)).toHaveLength(40);
    expect(Array.from(longestName)).toHaveLength(200);
    expect(tags).toHaveLength(53);
  });

  it.each(tags)("%s: start with the code, name the controller once, and say what to do when unasked", (tag) => {
    const { codeText, codeIgnore } = centerStrings[tag];
    expect(codeText.startsWith("{o}")).toBe(true);
    expect(codeText.split("{o}")).toHaveLength(2);
    expect(codeText.split("{c}")).toHaveLength(2);
    expect(codeIgnore).not.toMatch(/[{}]/);
    const email = codeEmailText(message(tag, usualName));
    expect(email.startsWith(`${code}`)).toBe(true);
    expect(email).toContain(usualName);
    expect(email.endsWith(`\n\n${codeIgnore}`)).toBe(true);
  });

  it.each(tags)("%s: an SMS with a 40-character name fits two segments whole, the code first", (tag) => {
    const sms = codeSms(message(tag, usualName));
    expect(sms.text).toMatch(new RegExp(`^${code}\\P{N}`, "u"));
    expect(sms.text).toContain(usualName);
    expect(sms.dcs).toBe(chooseDcs(sms.text));
    expect(sms.segments).toBe(segmentCount(sms.text, sms.dcs));
    expect(sms.segments).toBeLessThanOrEqual(maxCodeSegments);
  });

  it.each(tags)("%s: an SMS with the longest name allowed fits two segments, the name shortened if need be", (tag) => {
    const sms = codeSms(message(tag, longestName));
    expect(sms.text.startsWith(code)).toBe(true);
    expect(sms.segments).toBe(segmentCount(sms.text, chooseDcs(sms.text)));
    expect(sms.segments).toBeLessThanOrEqual(maxCodeSegments);
    if (sms.text.includes(longestName)) return;
    // Shortened: as much of the name as fits, so the text fills the two segments, and an ellipsis says so.
    expect(sms.segments).toBe(maxCodeSegments);
    const [, shown] = /(Aktiebolaget[^.…]*?)(\.\.\.|…)/u.exec(sms.text)!;
    expect(longestName.startsWith(shown)).toBe(true);
    expect(shown.length).toBeGreaterThan(20);
  });

  it("shortens the name in the languages whose SMS is UCS-2, and in none that fits GSM-7", () => {
    const shortened = tags.filter((tag) => !codeSms(message(tag, longestName)).text.includes(longestName));
    const ucs = tags.filter((tag) => codeSms(message(tag, usualName)).dcs === "ucs");
    expect(shortened).toEqual(ucs);
    expect(ucs).toEqual(expect.arrayContaining(["ar", "ru", "zh-Hans", "pl"]));
  });
});

describe("the SMS's encoding", () => {
  it("stays GSM-7 when the words and a long name fit its alphabet, with three dots for the ellipsis", () => {
    // Characters of GSM-7's extension table take two septets each: 200 of them overflow two segments.
    const sms = codeSms(message("sv", "[Nordic] {Outdoor} €".repeat(10)));
    expect(sms.text.startsWith(`${code} är din kod`)).toBe(true);
    expect(sms.dcs).toBe("gsm");
    expect(sms.segments).toBe(maxCodeSegments);
    expect(sms.text).toContain("...");
    expect(sms.text).not.toContain("…");
  });

  it("uses UCS-2 when the name needs it, in a language that otherwise fits GSM-7", () => {
    expect(codeSms(message("sv", "Łódź Outdoor")).dcs).toBe("ucs");
    expect(codeSms(message("sv", "Kiruna Outdoor")).dcs).toBe("gsm");
  });

  it("keeps a name that itself reads like a placeholder as written", () => {
    expect(codeSms(message("en", "{o} Labs")).text).toBe(`${code} is your code for the privacy center of {o} Labs. It is valid for 10 minutes.`);
  });
});
