import type { Strings } from "../strings";

/* Lithuanian: polite "jūs", as Lithuanian sites address visitors. */
export default {
  title: "Privatumo nustatymai",
  intro: "{c} norėtų naudoti jūsų duomenis, kaip aprašyta toliau. Bet kada galite persigalvoti.",
  privacyPolicy: "Privatumo politika",
  terms: "Naudojimo sąlygos",
  cookiePolicy: "Slapukų politika",
  acceptAll: "Priimti visus",
  rejectAll: "Atmesti visus",
  save: "Išsaugoti nustatymus",
  close: "Uždaryti",
  details: "Išsamiau",
  dataUsed: "Naudojami duomenys",
  controller: "Duomenų valdytojas",
  processor: "Duomenų tvarkytojas",
  recipient: "Duomenų gavėjas",
  consent: "Sutikimas",
  contract: "Sutarties vykdymas",
  legitimateInterests: "Teisėti interesai",
  legalObligation: "Teisinė prievolė",
  object: "Nesutikti",
  objectionSent: "Nesutikimas išsiųstas",
  new: "Naujas",
  gpc: "Jūsų naršyklė siunčia Global Privacy Control signalą, todėl sutikimas iš pradžių išjungtas.",
  serviceDown: "Nepavyko susisiekti su privatumo paslauga, todėl niekas neišsaugota.",
  retry: "Bandyti dar kartą",
  saved: "Jūsų nustatymai išsaugoti.",
  thisSite: "Ši svetainė",
  noticeOptIn:
    "{c} norėtų jūsų sutikimu naudoti jūsų duomenis tikslais, kuriuos galite peržiūrėti skiltyje „Tinkinti“. Bet kada galite persigalvoti.",
  noticeOptOut:
    "{c} naudoja jūsų duomenis, kaip aprašyta skiltyje „Privatumo nustatymai“, ir gali jais dalytis su partneriais. Bet kada galite to atsisakyti.",
  noticeOnly: "{c} naudoja jūsų duomenis, kaip aprašyta skiltyje „Privatumo nustatymai“, kur galite ir nesutikti.",
  customize: "Tinkinti",
  gpcApplied:
    "Jūsų naršyklė siunčia Global Privacy Control signalą, todėl jūsų duomenys nebus parduodami ar perduodami kitiems.",
  ok: "Gerai",
  offline: "Jūsų pasirinkimas laikomas šiame įrenginyje ir bus išsiųstas, kai privatumo paslauga atsakys.",
  downloadReceipt: "Atsisiųsti patvirtinimą",
  exempt: "Sutikimo nereikia",
} satisfies Strings;
