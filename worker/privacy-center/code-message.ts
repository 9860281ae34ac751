import { fillIn } from "../../shared/i18n/fill";
import type { CenterStrings } from "../../shared/i18n/privacy-center";
import { chooseDcs, firstNonGsm, segmentCount, type Dcs } from "../hub/encoding";

/** A code to send, with the words of the visitor's language (`wordsIn`). */
export type CodeMessage = {
  projectId: string;
  to: string;
  code: string;
  projectName: string;
  strings: Pick<CenterStrings, "heading" | "code" | "codeText" | "codeIgnore">;
};

/** The most parts a code's SMS takes: two still arrive as one message, and cost at most twice one. */
export const maxCodeSegments = 2;

/** Names what the mail is without the code: subjects show in notifications and mail lists, and providers keep them. */
export const codeSubject = ({ projectName, strings }: CodeMessage) => `${strings.heading} · ${projectName}: ${strings.code}`;

/** The code first (mail apps show the opening line in notifications), then what to do when it was not asked for. */
export const codeEmailText = ({ code, projectName, strings }: CodeMessage) =>
  `${fillIn(strings.codeText, { o: code, c: projectName })}\n\n${strings.codeIgnore}`;

/**
 * The code's SMS: `codeText` alone, the code first (phones show the opening in notifications and offer it to
 * autofill), in GSM-7 when the words and the name fit its alphabet. A name long enough to push the text past
 * `maxCodeSegments` is shortened, ending in an ellipsis of the text's own encoding (three dots keep GSM-7).
 */
export function codeSms({ code, projectName, strings }: CodeMessage): { text: string; dcs: Dcs; segments: number } {
  const name = Array.from(projectName);
  const ellipsis = firstNonGsm(strings.codeText + projectName) === undefined ? "..." : "…";
  for (let kept = name.length; ; kept--) {
    const shown = kept === name.length ? projectName : `${name.slice(0, kept).join("").trimEnd()}${ellipsis}`;
    const text = fillIn(strings.codeText, { o: code, c: shown });
    const dcs = chooseDcs(text);
    const segments = segmentCount(text, dcs);
    if (segments <= maxCodeSegments || kept === 0) return { text, dcs, segments };
  }
}

/** What the person is told when their address reaches its daily cap of wrong codes: once a day, by its own channel. */
export type Warning = Omit<CodeMessage, "code" | "strings"> & { strings: Pick<CenterStrings, "heading" | "codesTried"> };

export const warningSubject = ({ projectName, strings }: Warning) => `${strings.heading} · ${projectName}`;

export const warningText = ({ projectName, strings }: Warning) => fillIn(strings.codesTried, { c: projectName });

/** The warning's SMS, in GSM-7 when its words and the name fit that alphabet. */
export function warningSms(warning: Warning): { text: string; dcs: Dcs; segments: number } {
  const text = warningText(warning);
  const dcs = chooseDcs(text);
  return { text, dcs, segments: segmentCount(text, dcs) };
}
