import type { Strings } from "../strings";

/* Slovenian: polite "vi" (vikanje), as Slovenian sites address visitors. The Regulation's recipient is "uporabnik". */
export default {
  title: "Nastavitve zasebnosti",
  intro: "{c} želi uporabljati vaše podatke, kot je opisano spodaj. Svojo odločitev lahko kadar koli spremenite.",
  privacyPolicy: "Politika zasebnosti",
  terms: "Pogoji uporabe",
  cookiePolicy: "Politika piškotkov",
  acceptAll: "Sprejmi vse",
  rejectAll: "Zavrni vse",
  save: "Shrani izbiro",
  close: "Zapri",
  details: "Podrobnosti",
  dataUsed: "Uporabljeni podatki",
  controller: "Upravljavec",
  processor: "Obdelovalec",
  recipient: "Uporabnik",
  consent: "Privolitev",
  contract: "Izvajanje pogodbe",
  legitimateInterests: "Zakoniti interesi",
  legalObligation: "Izpolnitev zakonske obveznosti",
  object: "Vloži ugovor",
  objectionSent: "Ugovor poslan",
  new: "Novo",
  gpc: "Vaš brskalnik pošilja signal Global Privacy Control, zato je privolitev na začetku izklopljena.",
  serviceDown: "Storitve za zasebnost ni bilo mogoče doseči, zato ni bilo nič shranjeno.",
  retry: "Poskusi znova",
  saved: "Vaša izbira je shranjena.",
  thisSite: "To spletno mesto",
  noticeOptIn:
    "{c} želi z vašo privolitvijo uporabljati vaše podatke za namene, ki si jih lahko ogledate pod „Prilagodi“. Svojo odločitev lahko kadar koli spremenite.",
  noticeOptOut:
    "{c} uporablja vaše podatke, kot je opisano pod „Nastavitve zasebnosti“, kar lahko vključuje tudi deljenje s partnerji. Kadar koli lahko to zavrnete.",
  noticeOnly: "{c} uporablja vaše podatke, kot je opisano pod „Nastavitve zasebnosti“, kjer lahko tudi ugovarjate.",
  customize: "Prilagodi",
  gpcApplied:
    "Vaš brskalnik pošilja signal Global Privacy Control, zato se vaši podatki ne bodo prodajali ali delili.",
  ok: "V redu",
  offline: "Vaša izbira je shranjena v tej napravi in bo poslana, ko se storitev za zasebnost odzove.",
  downloadReceipt: "Prenesi potrdilo",
  exempt: "Ne zahteva privolitve",
} satisfies Strings;
