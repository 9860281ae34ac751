import type { Strings } from "../../shared/i18n/strings";
import type { Translation } from "../../shared/browser/types";

/*
 * The widget's own words at run time. The bootstrap answer carries them, in the language the service chose (see
 * shared/i18n/negotiate.ts), with the project's own wording applied: the eager bundle carries no language. Only
 * without the service (down, or from before the bootstrap) does the widget fetch a language file itself: the build
 * writes each shipped language (shared/i18n/shipped.ts) to `i18n/<version>/<tag>.json` next to the script, where
 * <version> hashes them all (immutable files, one short hash in the bundle). A fetch works in both builds, the
 * classic one included, and from file:// pages.
 */
declare const __ASSENT_I18N__: string;

/** The script's own URL: the default API origin and the base of the language files. */
export const scriptUrl = (document.currentScript as HTMLScriptElement | null)?.src || import.meta.url;

const languageFile = (tag: string): Promise<Strings> =>
  fetch(new URL(`i18n/${__ASSENT_I18N__}/${tag}.json`, scriptUrl)).then((answer) => (answer.ok ? answer.json() : Promise.reject()));

/** Without the service: the first preference's language by its primary subtag, else English. */
export async function offlineStrings(languages: string[]): Promise<[string, Strings]> {
  const tag = (languages[0] || "en").split("-")[0];
  return languageFile(tag).then((strings) => [tag, strings], async () => ["en", await languageFile("en")]);
}

/** Puts a name where `{c}` stands, literally (String.replace would read `$'` and `$&` in the name as patterns). */
export const fill = (text: string, name: string) => text.split("{c}").join(name);

/**
 * A configuration text: the bootstrap has narrowed every list to the visitor's language (or the project's default,
 * or English, as the project has them), so the first entry is the one. (From a server before the bootstrap, the
 * first text there is.)
 */
export const pick = (texts?: Translation[]) => texts?.[0]?.text ?? "";
