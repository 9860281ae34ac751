/*
 * The words of the TCF dialog's layers (widget/src/tcf/layers.ts, vendors.ts; docs/tcf.md#what-each-layer-shows-and-why),
 * apart from the widget's own (./strings.ts) so that only visitors of TCF projects load them: the module build writes
 * one file per language the widget ships, tcf-i18n/<version>/<tag>.json, which the TCF chunk fetches beside the
 * project's vendor list. Everything else the layers name (purposes, features, stacks, data categories) is the GVL's
 * own, in IAB's translation. English is the reference; every other language has its own module in ./tcf/<tag>.ts with
 * every key (test/i18n/translations.test.ts checks keys, placeholders and that none is left in English).
 */
import ar from "./tcf/ar";
import bg from "./tcf/bg";
import bs from "./tcf/bs";
import ca from "./tcf/ca";
import cs from "./tcf/cs";
import cy from "./tcf/cy";
import da from "./tcf/da";
import de from "./tcf/de";
import el from "./tcf/el";
import es from "./tcf/es";
import et from "./tcf/et";
import eu from "./tcf/eu";
import fa from "./tcf/fa";
import fi from "./tcf/fi";
import fr from "./tcf/fr";
import ga from "./tcf/ga";
import gl from "./tcf/gl";
import he from "./tcf/he";
import hi from "./tcf/hi";
import hr from "./tcf/hr";
import hu from "./tcf/hu";
import id from "./tcf/id";
import is from "./tcf/is";
import it from "./tcf/it";
import ja from "./tcf/ja";
import ko from "./tcf/ko";
import lb from "./tcf/lb";
import lt from "./tcf/lt";
import lv from "./tcf/lv";
import mk from "./tcf/mk";
import ms from "./tcf/ms";
import mt from "./tcf/mt";
import nb from "./tcf/nb";
import nl from "./tcf/nl";
import nn from "./tcf/nn";
import pl from "./tcf/pl";
import pt from "./tcf/pt";
import pt_BR from "./tcf/pt-BR";
import rm from "./tcf/rm";
import ro from "./tcf/ro";
import ru from "./tcf/ru";
import sk from "./tcf/sk";
import sl from "./tcf/sl";
import sq from "./tcf/sq";
import sr from "./tcf/sr";
import sv from "./tcf/sv";
import th from "./tcf/th";
import tr from "./tcf/tr";
import uk from "./tcf/uk";
import vi from "./tcf/vi";
import zh_Hans from "./tcf/zh-Hans";
import zh_Hant from "./tcf/zh-Hant";

export const tcfEnglish = {
  /** The first layer (TCF Policies, Appendix B): {c} = the number of vendors (GVL companies) the site works with. */
  vendorCount: "We and our {c} vendors store and/or access information on a device and process personal data for the purposes below.",
  /** The first layer, when some vendors rely on legitimate interest (the right to object, GDPR Art. 21); names the Customize button. */
  objectNote: "Some vendors process personal data on the basis of their legitimate interest, which you can object to under Customize.",
  /** The list of vendors: a button on the first layer, a section of the second. */
  vendorList: "Vendor list",
  /** How long a vendor keeps data for a purpose; {c} = a number of days. */
  retention: "kept for {c} days",
  /** Heading over a vendor's special purposes and features, which need no choice. */
  features: "Special purposes and features",
  /** Heading over how a vendor stores or reads information on the device (the Tech Lab's device storage disclosure); also the label of its disclosure's link. */
  storage: "Storage on your device",
  /** That a vendor uses cookies; {c} = how long it keeps them (maxAge or session, perhaps with refreshed). */
  cookies: "Uses cookies: {c}",
  /** The type of an item a vendor discloses: a cookie. */
  cookie: "a cookie",
  /** The type of an item a vendor discloses: kept in the browser's web storage (localStorage, IndexedDB and the like). */
  web: "web storage",
  /** The type of an item a vendor discloses: kept by a mobile app. */
  app: "app storage",
  /** The longest a cookie or stored item is kept; {c} = a number of days. */
  maxAge: "up to {c} days",
  /** A cookie deleted when the browser session ends. */
  session: "session only",
  /** A cookie whose lifetime starts again whenever the vendor reads it. */
  refreshed: "renewed on each visit",
  /** A vendor that uses no cookies. */
  noCookies: "No cookies",
  /** A vendor that also stores or reads information on the device by other means than cookies. */
  otherAccess: "Other storage or access on the device, such as web storage",
  /** The vendor's own list of what it stores could not be fetched or read; its link follows. */
  unavailable: "The vendor's storage details could not be loaded.",
  /** Heading over the purposes the site does not allow a vendor (a publisher restriction). */
  notAllowed: "Not allowed by this site",
  /** Heading over Google's Ad Tech Providers, companies Google works with that are not in IAB's vendor list. */
  acProviders: "Google's Ad Tech Providers",
  /** What the visitor's choice means for them (Google's Additional Consent). */
  acNote: "Not in IAB's vendor list: Google's Additional Consent string tells them your consent, which also needs your consent to storing and accessing information on a device.",
  /** Opens a purpose's examples of use (the GVL's illustrations) in the second layer. */
  examples: "Examples",
};

export type TcfKey = keyof typeof tcfEnglish;
/**
 * A project's own wording names these words `tcf.<key>` beside the widget's (worker/wording/words.ts), and the
 * bootstrap carries the ones it set: the TCF chunk puts them over the shipped words. IAB's own names (purposes,
 * features, stacks) have no key: the TCF Policies (Appendix A) let no one reword them.
 */
export const tcfWordPrefix = "tcf.";
export type TcfStrings = Record<TcfKey, string>;

export const tcfStrings: Record<string, TcfStrings> = {
  en: tcfEnglish,
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
