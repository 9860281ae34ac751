import type { Strings } from "../strings";

/* Maltese: second person singular, as Maltese public sites address the reader. */
export default {
  title: "Għażliet tal-privatezza",
  intro: "{c} jixtieq juża d-data tiegħek kif deskritt hawn taħt. Tista' tibdel fehmtek fi kwalunkwe ħin.",
  privacyPolicy: "Politika tal-privatezza",
  terms: "Termini u kundizzjonijiet",
  cookiePolicy: "Politika dwar il-cookies",
  acceptAll: "Aċċetta kollox",
  rejectAll: "Irrifjuta kollox",
  save: "Aħżen l-għażliet",
  close: "Agħlaq",
  details: "Dettalji",
  dataUsed: "Data użata",
  controller: "Kontrollur",
  processor: "Proċessur",
  recipient: "Riċevitur",
  consent: "Kunsens",
  contract: "Twettiq ta' kuntratt",
  legitimateInterests: "Interessi leġittimi",
  legalObligation: "Konformità ma' obbligu legali",
  object: "Oġġezzjona",
  objectionSent: "Oġġezzjoni mibgħuta",
  new: "Ġdid",
  gpc: "Il-browser tiegħek jibgħat is-sinjal Global Privacy Control, għalhekk il-kunsens jibda mitfi.",
  serviceDown: "Is-servizz tal-privatezza ma setax jintlaħaq, għalhekk ma ġie maħżun xejn.",
  retry: "Erġa' pprova",
  saved: "L-għażliet tiegħek ġew maħżuna.",
  thisSite: "Dan is-sit",
  noticeOptIn:
    "{c} jixtieq juża d-data tiegħek, bil-kunsens tiegħek, għall-finijiet li tista' tara taħt “Ippersonalizza”. Tista' tibdel fehmtek fi kwalunkwe ħin.",
  noticeOptOut:
    "{c} juża d-data tiegħek kif deskritt taħt “Għażliet tal-privatezza”, u dan jista' jinkludi l-qsim tagħha mal-imsieħba. Tista' tirrifjuta fi kwalunkwe ħin.",
  noticeOnly: "{c} juża d-data tiegħek kif deskritt taħt “Għażliet tal-privatezza”, fejn tista' wkoll toġġezzjona.",
  customize: "Ippersonalizza",
  gpcApplied:
    "Il-browser tiegħek jibgħat is-sinjal Global Privacy Control, għalhekk id-data tiegħek mhux se tinbiegħ jew tinqasam.",
  ok: "OK",
  offline: "L-għażla tiegħek tinżamm fuq dan l-apparat u tintbagħat meta s-servizz tal-privatezza jwieġeb.",
  downloadReceipt: "Niżżel l-irċevuta",
  exempt: "Ma jeħtieġx kunsens",
} satisfies Strings;
