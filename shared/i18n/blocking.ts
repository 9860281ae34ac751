/*
 * The click-to-load placeholders' words (widget/src/blocking/placeholder.ts): what loads, from whom, and who then
 * receives data. English is the reference; every other language the widget ships (./shipped.ts) has its own module in
 * ./blocking/<tag>.ts with every key (test/i18n/translations.test.ts checks keys, placeholders and that none is left
 * in English). The blocker's build writes one file per language, fetched when a page first shows a placeholder.
 * Placeholders: {v} the vendor (YouTube), {c} the company that receives data (Google); for `content`, a frame of a host
 * no vendor of the catalogue names: {v} that host, {p} the names of the purposes a click consents to.
 */
import ar from "./blocking/ar";
import bg from "./blocking/bg";
import bs from "./blocking/bs";
import ca from "./blocking/ca";
import cs from "./blocking/cs";
import cy from "./blocking/cy";
import da from "./blocking/da";
import de from "./blocking/de";
import el from "./blocking/el";
import es from "./blocking/es";
import et from "./blocking/et";
import eu from "./blocking/eu";
import fa from "./blocking/fa";
import fi from "./blocking/fi";
import fr from "./blocking/fr";
import ga from "./blocking/ga";
import gl from "./blocking/gl";
import he from "./blocking/he";
import hi from "./blocking/hi";
import hr from "./blocking/hr";
import hu from "./blocking/hu";
import id from "./blocking/id";
import is from "./blocking/is";
import it from "./blocking/it";
import ja from "./blocking/ja";
import ko from "./blocking/ko";
import lb from "./blocking/lb";
import lt from "./blocking/lt";
import lv from "./blocking/lv";
import mk from "./blocking/mk";
import ms from "./blocking/ms";
import mt from "./blocking/mt";
import nb from "./blocking/nb";
import nl from "./blocking/nl";
import nn from "./blocking/nn";
import pl from "./blocking/pl";
import pt from "./blocking/pt";
import pt_BR from "./blocking/pt-BR";
import rm from "./blocking/rm";
import ro from "./blocking/ro";
import ru from "./blocking/ru";
import sk from "./blocking/sk";
import sl from "./blocking/sl";
import sq from "./blocking/sq";
import sr from "./blocking/sr";
import sv from "./blocking/sv";
import th from "./blocking/th";
import tr from "./blocking/tr";
import uk from "./blocking/uk";
import vi from "./blocking/vi";
import zh_Hans from "./blocking/zh-Hans";
import zh_Hant from "./blocking/zh-Hant";

export const blockingEnglish = {
  video: "Load the video from {v}: this shares data with {c}",
  map: "Load the map from {v}: this shares data with {c}",
  audio: "Load the audio from {v}: this shares data with {c}",
  content: "Load content from {v} and consent to {p}",
};

export type BlockingKey = keyof typeof blockingEnglish;
export type BlockingStrings = Record<BlockingKey, string>;

export const blockingStrings: Record<string, BlockingStrings> = {
  en: blockingEnglish,
  ar,
  bg,
  bs,
  ca,
  cs,
  cy,
  da,
  de,
  el,
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
