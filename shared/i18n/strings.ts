/*
 * The widget's own words, by name. English is the reference: every language module (./languages/<tag>.ts)
 * default-exports an object that `satisfies Strings`, so a missing or unknown key is a type error. `{c}` stands for
 * the controller's name and must survive translation. The role and legal-ground keys carry the GDPR's own terms
 * (Art. 4 and Art. 6(1)) in the EU languages; see ./gdpr-terms.ts.
 */
export const english = {
  /** Dialog title, also the first layer's button that opens the preferences in notice-only regimes. */
  title: "Your privacy choices",
  /** Preferences layer intro; {c} = controller. */
  intro: "{c} would like to use your data as described below. You can change your mind at any time.",
  privacyPolicy: "Privacy policy",
  terms: "Terms",
  cookiePolicy: "Cookie policy",
  acceptAll: "Accept all",
  rejectAll: "Reject all",
  save: "Save choices",
  close: "Close",
  details: "Details",
  dataUsed: "Data used",
  /** GDPR Art. 4(7), (8), (9): a heading over the parties in that role. */
  controller: "Controller",
  processor: "Processor",
  recipient: "Recipient",
  /** GDPR Art. 6(1)(a), (b), (f), (c): the legal ground a purpose rests on. */
  consent: "Consent",
  contract: "Performance of a contract",
  legitimateInterests: "Legitimate interests",
  legalObligation: "Compliance with a legal obligation",
  /** Button: exercise the right to object (Art. 21) to one purpose. */
  object: "Object",
  objectionSent: "Objection sent",
  /** Tag on a purpose the visitor has not answered yet. */
  new: "New",
  gpc: "Your browser sends Global Privacy Control, so consent starts switched off.",
  serviceDown: "The privacy service could not be reached, so nothing was saved.",
  retry: "Try again",
  saved: "Your choices were saved.",
  /** Stands in for an unknown controller name. */
  thisSite: "This site",
  /** First layer, per regime. */
  noticeOptIn:
    "{c} would like to use your data, with your consent, for the purposes you can review under Customize. You can change your mind at any time.",
  noticeOptOut:
    "{c} uses your data as described under Your privacy choices, which may include sharing it with partners. You can opt out at any time.",
  noticeOnly: "{c} uses your data as described under Your privacy choices, where you can also object.",
  customize: "Customize",
  gpcApplied: "Your browser sends Global Privacy Control, so you were opted out of the sale and sharing of your data.",
  ok: "OK",
  offline: "Your choice is kept on this device and will be sent when the privacy service answers.",
  downloadReceipt: "Download receipt",
  /** In place of a switch: the purpose runs under an exemption from consent (a reason the law allows). */
  exempt: "Needs no consent",
  /** US opt-out regimes: the link text California's CCPA (Civ. Code 1798.135(a)(1)) prescribes; opens the choices. */
  doNotSell: "Do Not Sell or Share My Personal Information",
  /** CCPA 1798.135(a)(2): beside the switch of a purpose that uses sensitive personal information. */
  limitSensitive: "Limit the Use of My Sensitive Personal Information",
};

export type StringKey = keyof typeof english;
export type Strings = Record<StringKey, string>;
