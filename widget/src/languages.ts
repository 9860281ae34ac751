/*
 * Every language the widget ships, by tag: one module per language in ./i18n/ (<tag>.ts, `satisfies Strings`),
 * registered here. The Worker negotiates against these tags (plus the project's own languages) and sends the chosen
 * language's words in the bootstrap answer, so the widget's eager bundle carries none of them; the build writes each
 * as i18n/<version>/<tag>.json for a widget that cannot reach the service. The build and the translation test fail
 * when a module in ./i18n/ is missing here.
 */
import type { Strings } from "./i18n/strings";
import de from "./i18n/de";
import en from "./i18n/en";
import es from "./i18n/es";
import fr from "./i18n/fr";
import it from "./i18n/it";
import lt from "./i18n/lt";
import lv from "./i18n/lv";
import mt from "./i18n/mt";
import nl from "./i18n/nl";
import pl from "./i18n/pl";
import pt from "./i18n/pt";
import pt_BR from "./i18n/pt-BR";
import ro from "./i18n/ro";
import sk from "./i18n/sk";
import sl from "./i18n/sl";
import sv from "./i18n/sv";

export const shippedStrings: Record<string, Strings> = {
  de,
  en,
  es,
  fr,
  it,
  lt,
  lv,
  mt,
  nl,
  pl,
  pt,
  "pt-BR": pt_BR,
  ro,
  sk,
  sl,
  sv,
};
