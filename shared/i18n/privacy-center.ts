/*
 * The privacy center's own words (worker/privacy-center, privacy-center/). The widget's words come with them in the
 * same language (shared/i18n/strings.ts: title, privacy policy, legal grounds), chosen with the widget's negotiation
 * (./negotiate.ts). English is the reference; every other language the widget ships (./shipped.ts) has its own module
 * in ./privacy-center/<tag>.ts with every key (test/i18n/translations.test.ts checks keys, placeholders and that none
 * is left in English), so no language falls back to English. The EU languages use the Regulation's own words for the
 * rights and its name, from its official text in each language. Placeholders: {c} controller,
 * {m} method (`methodEmail` or `methodSms`, in the form the sentence takes it), {t} and {d} a date and time, {o} the
 * one-time code. `codeText` is the code's SMS and the first paragraph of its email (worker/privacy-center/code-message.ts):
 * it starts with {o}, which phones show in notifications and offer to autofill, and stays short enough for two SMS
 * segments with the controller's name; `codeIgnore` follows it in the email only. `codesTried` is the one message
 * sent when an address reaches its daily cap of wrong codes (worker/privacy-center/guard.ts).
 */
import ar from "./privacy-center/ar";
import bg from "./privacy-center/bg";
import bs from "./privacy-center/bs";
import ca from "./privacy-center/ca";
import cs from "./privacy-center/cs";
import cy from "./privacy-center/cy";
import da from "./privacy-center/da";
import de from "./privacy-center/de";
import el from "./privacy-center/el";
import es from "./privacy-center/es";
import et from "./privacy-center/et";
import eu from "./privacy-center/eu";
import fa from "./privacy-center/fa";
import fi from "./privacy-center/fi";
import fr from "./privacy-center/fr";
import ga from "./privacy-center/ga";
import gl from "./privacy-center/gl";
import he from "./privacy-center/he";
import hi from "./privacy-center/hi";
import hr from "./privacy-center/hr";
import hu from "./privacy-center/hu";
import id from "./privacy-center/id";
import is from "./privacy-center/is";
import it from "./privacy-center/it";
import ja from "./privacy-center/ja";
import ko from "./privacy-center/ko";
import lb from "./privacy-center/lb";
import lt from "./privacy-center/lt";
import lv from "./privacy-center/lv";
import mk from "./privacy-center/mk";
import ms from "./privacy-center/ms";
import mt from "./privacy-center/mt";
import nb from "./privacy-center/nb";
import nl from "./privacy-center/nl";
import nn from "./privacy-center/nn";
import pl from "./privacy-center/pl";
import pt from "./privacy-center/pt";
import pt_BR from "./privacy-center/pt-BR";
import rm from "./privacy-center/rm";
import ro from "./privacy-center/ro";
import ru from "./privacy-center/ru";
import sk from "./privacy-center/sk";
import sl from "./privacy-center/sl";
import sq from "./privacy-center/sq";
import sr from "./privacy-center/sr";
import sv from "./privacy-center/sv";
import th from "./privacy-center/th";
import tr from "./privacy-center/tr";
import uk from "./privacy-center/uk";
import vi from "./privacy-center/vi";
import zh_Hans from "./privacy-center/zh-Hans";
import zh_Hant from "./privacy-center/zh-Hant";
export const centerEnglish = {
  heading: "Privacy center",
  intro: "See what you agreed to on this browser, and ask {c} for a copy of your data, its erasure, or to stop using it.",
  yourChoices: "Your choices on this browser",
  noChoices: "No choices are recorded on this browser yet.",
  receiptVerified: "Signed receipt verified",
  receiptInvalid: "The receipt's signature does not verify",
  changeChoices: "Change my choices",
  identify: "Prove who you are",
  identifyIntro: "We send a one-time code to your email address or phone number.",
  email: "Email address",
  phone: "Phone number, with country code (+46…)",
  sendCode: "Send code",
  codeSent: "If this address can receive messages, a code is on its way. It is valid for 10 minutes.",
  code: "6-digit code",
  verify: "Verify",
  verifiedBy: "Identity verified by {m} at {t}",
  methodEmail: "email",
  methodSms: "SMS",
  addressNames: "This address names:",
  noIdentity: "We hold no data about this address.",
  yourRequests: "Your requests",
  noRequests: "No requests yet.",
  access: "A copy of my data (Art. 15)",
  portability: "My data as a machine-readable file (Art. 20)",
  erasure: "Erase my data (Art. 17)",
  objection: "Stop using my data for the purposes I tick (Art. 21)",
  objectionPurposes: "Purposes to object to",
  send: "Send request",
  requestSent: "Your request was sent.",
  received: "Received",
  in_progress: "In progress",
  completed: "Completed",
  rejected: "Rejected",
  withdrawn: "Withdrawn",
  deadline: "Answer due by {d}",
  extension: "{c} may extend this by two further months for complex or numerous requests, and must tell you so by {d} (GDPR Art. 12(3)).",
  download: "Download my data",
  downloadUntil: "The link works until {d}.",
  codeText: "{o} is your code for the privacy center of {c}. It is valid for 10 minutes.",
  codeIgnore: "If you did not ask for it, ignore this message.",
  codesTried: "Someone tried many wrong codes for this address at the privacy center of {c}. Until tomorrow, each try needs an extra check. You need not do anything.",
};

export type CenterKey = keyof typeof centerEnglish;
export type CenterStrings = Record<CenterKey, string>;

export const centerStrings: Record<string, CenterStrings> = {
  en: centerEnglish,
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


