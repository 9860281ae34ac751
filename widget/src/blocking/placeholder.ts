/**
 * Click-to-load placeholders for held frames, the blocker's (widget/src/blocking/index.ts) and those gated by hand in
 * the widget's own markup (widget/src/gated-frames.ts): a real button in the frame's place, in the page's language,
 * saying what loads and who receives data. The words come from the build's file for that language
 * (shared/i18n/blocking.ts), fetched when the first placeholder is drawn, so neither script carries any language.
 */
import { direction } from "../../../shared/i18n/direction";
import { fillIn } from "../../../shared/i18n/fill";
import { lookup } from "../../../shared/i18n/negotiate";
import { blockingEnglish, type BlockingKey } from "../../../shared/i18n/blocking";

declare const __ASSENT_BLOCKING_I18N__: string;
declare const __ASSENT_BLOCKING_TAGS__: string[];

type Words = Record<BlockingKey, string>;
let words: Promise<[string, Words | undefined]> | undefined;

/** The page's language (its `lang`, else the browser's) as one of the shipped ones, and its words. */
const wordsFor = (api: string) =>
  (words ??= (async () => {
    const tag = lookup([document.documentElement.lang, ...navigator.languages].filter(Boolean), __ASSENT_BLOCKING_TAGS__) ?? "en";
    const file = (language: string) =>
      fetch(`${api}/widget/blocking-i18n/${__ASSENT_BLOCKING_I18N__}/${language}.json`).then((answer) => (answer.ok ? answer.json() : Promise.reject()));
    return file(tag).then(
      (found: Words) => [tag, found] as [string, Words],
      () => file("en").then((found: Words) => ["en", found] as [string, Words], () => ["en", undefined] as [string, undefined]),
    );
  })());

/**
 * The button's words: the sentence of `key` with its placeholders filled from `values` (`{v: "YouTube", c: "Google"}`
 * for a catalogue embed; `{v: host, p: purposes}` for `content`).
 */
export type Label = { key: BlockingKey; values: Record<string, string> };

/** Draws the placeholder before `frame` and hides the frame; returns what takes it away again. */
export function placeholder(frame: HTMLIFrameElement, { key, values }: Label, api: string, load: () => Promise<unknown>): () => void {
  const box = document.createElement("div");
  const button = document.createElement("button");
  const size = (value: string, fallback: string) => (/^\d+$/.test(value) ? `${value}px` : value || fallback);
  box.className = "assent-placeholder";
  Object.assign(box.style, {
    display: "flex",
    alignItems: "center",
    justifyContent: "center",
    boxSizing: "border-box",
    width: size(frame.getAttribute("width") ?? "", "300px"),
    height: size(frame.getAttribute("height") ?? "", "150px"),
    maxWidth: "100%",
    padding: "1em",
    background: "#f1f1f1",
    color: "#1a1a1a",
    border: "1px solid #767676",
  });
  button.type = "button";
  button.style.visibility = "hidden";
  // aria-disabled rather than disabled while it loads: a disabled button would drop a keyboard user's focus.
  // On the box, not the button: the button shows only once its words have arrived, and a click on the box before
  // that would otherwise be lost (the visitor's first click did nothing).
  box.onclick = async () => {
    if (button.hasAttribute("aria-disabled")) return;
    button.setAttribute("aria-disabled", "true");
    // A load that did not happen (false: the consent was not recorded) leaves the button to be tried again.
    if ((await load()) === false) button.removeAttribute("aria-disabled");
  };
  void wordsFor(api).then(([tag, found]) => {
    button.textContent = fillIn((found ?? blockingEnglish)[key], values);
    box.lang = tag;
    box.dir = direction(tag);
    button.style.visibility = "";
  });
  box.append(button);
  const display = frame.style.display;
  frame.style.display = "none";
  frame.before(box);
  return () => {
    // A keyboard user's focus was on the button: it goes to what the button loaded, not back to the page's start.
    const focused = box.contains(document.activeElement);
    box.remove();
    frame.style.display = display;
    if (focused) frame.focus();
  };
}
