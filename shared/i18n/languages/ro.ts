import type { Strings } from "../strings";

/* Romanian: polite "dumneavoastră" in the text, imperative buttons as Romanian consent dialogs write them. Roles: operator = controller. */
export default {
  title: "Setări de confidențialitate",
  intro: "{c} ar dori să vă folosească datele așa cum este descris mai jos. Vă puteți răzgândi oricând.",
  privacyPolicy: "Politica de confidențialitate",
  terms: "Termeni și condiții",
  cookiePolicy: "Politica de cookie-uri",
  acceptAll: "Acceptă tot",
  rejectAll: "Respinge tot",
  save: "Salvează setările",
  close: "Închide",
  details: "Detalii",
  dataUsed: "Date utilizate",
  controller: "Operator",
  processor: "Persoană împuternicită de operator",
  recipient: "Destinatar",
  consent: "Consimțământ",
  contract: "Executarea unui contract",
  legitimateInterests: "Interese legitime",
  legalObligation: "Îndeplinirea unei obligații legale",
  object: "Mă opun",
  objectionSent: "Opoziție trimisă",
  new: "Nou",
  gpc: "Browserul dvs. trimite semnalul Global Privacy Control, așa că consimțământul este inițial dezactivat.",
  serviceDown: "Serviciul de confidențialitate nu a putut fi contactat, așa că nu s-a salvat nimic.",
  retry: "Încearcă din nou",
  saved: "Setările dvs. au fost salvate.",
  thisSite: "Acest site",
  noticeOptIn:
    "{c} ar dori să vă folosească datele, cu consimțământul dvs., în scopurile pe care le puteți consulta la „Personalizează”. Vă puteți răzgândi oricând.",
  noticeOptOut:
    "{c} vă folosește datele așa cum este descris la „Setări de confidențialitate”, ceea ce poate include partajarea lor cu parteneri. Puteți renunța oricând.",
  noticeOnly: "{c} vă folosește datele așa cum este descris la „Setări de confidențialitate”, unde vă puteți și opune.",
  customize: "Personalizează",
  gpcApplied:
    "Browserul dvs. trimite semnalul Global Privacy Control, așa că datele dvs. nu vor fi vândute sau partajate.",
  ok: "OK",
  offline: "Alegerea dvs. este păstrată pe acest dispozitiv și va fi trimisă când serviciul de confidențialitate răspunde.",
  downloadReceipt: "Descarcă confirmarea",
  exempt: "Nu necesită consimțământ",
} satisfies Strings;
