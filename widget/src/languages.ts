/*
 * Every language the widget ships, by tag: one module per language in ./i18n/ (<tag>.ts, `satisfies Strings`),
 * registered here. The Worker negotiates against these tags (plus the project's own languages) and sends the chosen
 * language's words in the bootstrap answer, so the widget's eager bundle carries none of them; the build writes each
 * as i18n/<version>/<tag>.json for a widget that cannot reach the service. The build and the translation test fail
 * when a module in ./i18n/ is missing here.
 */
import type { Strings } from "./i18n/strings";
import ar from "./i18n/ar";
import bg from "./i18n/bg";
import bs from "./i18n/bs";
import ca from "./i18n/ca";
import cs from "./i18n/cs";
import cy from "./i18n/cy";
import da from "./i18n/da";
import de from "./i18n/de";
import el from "./i18n/el";
import en from "./i18n/en";
import es from "./i18n/es";
import et from "./i18n/et";
import eu from "./i18n/eu";
import fa from "./i18n/fa";
import fi from "./i18n/fi";
import fr from "./i18n/fr";
import ga from "./i18n/ga";
import gl from "./i18n/gl";
import he from "./i18n/he";
import hi from "./i18n/hi";
import hr from "./i18n/hr";
import hu from "./i18n/hu";
import id from "./i18n/id";
import is from "./i18n/is";
import it from "./i18n/it";
import ja from "./i18n/ja";
import ko from "./i18n/ko";
import lb from "./i18n/lb";
import lt from "./i18n/lt";
import lv from "./i18n/lv";
import mk from "./i18n/mk";
import ms from "./i18n/ms";
import mt from "./i18n/mt";
import nb from "./i18n/nb";
import nl from "./i18n/nl";
import nn from "./i18n/nn";
import pl from "./i18n/pl";
import pt from "./i18n/pt";
import pt_BR from "./i18n/pt-BR";
import rm from "./i18n/rm";
import ro from "./i18n/ro";
import ru from "./i18n/ru";
import sk from "./i18n/sk";
import sl from "./i18n/sl";
import sq from "./i18n/sq";
import sr from "./i18n/sr";
import sv from "./i18n/sv";
import th from "./i18n/th";
import tr from "./i18n/tr";
import uk from "./i18n/uk";
import vi from "./i18n/vi";
import zh_Hans from "./i18n/zh-Hans";
import zh_Hant from "./i18n/zh-Hant";

export const shippedStrings: Record<string, Strings> = {
  ar,
  bg,
  bs,
  ca,
  cs,
  cy,
  da,
  de,
  el,
  en,
  es,
  et,
  eu,
  fa,
  fi,
  fr,
  ga,
  gl,
  he,
  hi,
  hr,
  hu,
  id,
  is,
  it,
  ja,
  ko,
  lb,
  lt,
  lv,
  mk,
  ms,
  mt,
  nb,
  nl,
  nn,
  pl,
  pt,
  "pt-BR": pt_BR,
  rm,
  ro,
  ru,
  sk,
  sl,
  sq,
  sr,
  sv,
  th,
  tr,
  uk,
  vi,
  "zh-Hans": zh_Hans,
  "zh-Hant": zh_Hant,
};
