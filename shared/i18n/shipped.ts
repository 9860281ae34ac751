/*
 * Every language the widget ships, by tag: one module per language in ./languages/ (<tag>.ts, `satisfies Strings`),
 * registered here. The Worker negotiates against these tags (plus the project's own languages) and sends the chosen
 * language's words in the bootstrap answer, so the widget's eager bundle carries none of them; the build writes each
 * as i18n/<version>/<tag>.json for a widget that cannot reach the service. The build and the translation test fail
 * when a module in ./languages/ is missing here.
 */
import type { Strings } from "./strings";
import ar from "./languages/ar";
import bg from "./languages/bg";
import bs from "./languages/bs";
import ca from "./languages/ca";
import cs from "./languages/cs";
import cy from "./languages/cy";
import da from "./languages/da";
import de from "./languages/de";
import el from "./languages/el";
import en from "./languages/en";
import es from "./languages/es";
import et from "./languages/et";
import eu from "./languages/eu";
import fa from "./languages/fa";
import fi from "./languages/fi";
import fr from "./languages/fr";
import ga from "./languages/ga";
import gl from "./languages/gl";
import he from "./languages/he";
import hi from "./languages/hi";
import hr from "./languages/hr";
import hu from "./languages/hu";
import id from "./languages/id";
import is from "./languages/is";
import it from "./languages/it";
import ja from "./languages/ja";
import ko from "./languages/ko";
import lb from "./languages/lb";
import lt from "./languages/lt";
import lv from "./languages/lv";
import mk from "./languages/mk";
import ms from "./languages/ms";
import mt from "./languages/mt";
import nb from "./languages/nb";
import nl from "./languages/nl";
import nn from "./languages/nn";
import pl from "./languages/pl";
import pt from "./languages/pt";
import pt_BR from "./languages/pt-BR";
import rm from "./languages/rm";
import ro from "./languages/ro";
import ru from "./languages/ru";
import sk from "./languages/sk";
import sl from "./languages/sl";
import sq from "./languages/sq";
import sr from "./languages/sr";
import sv from "./languages/sv";
import th from "./languages/th";
import tr from "./languages/tr";
import uk from "./languages/uk";
import vi from "./languages/vi";
import zh_Hans from "./languages/zh-Hans";
import zh_Hant from "./languages/zh-Hant";

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
