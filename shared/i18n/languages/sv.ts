import type { Strings } from "../strings";

/* Swedish: "du", as Swedish sites address visitors. */
export default {
  title: "Dina integritetsval",
  intro: "{c} vill använda dina uppgifter enligt nedan. Du kan ändra dina val när som helst.",
  privacyPolicy: "Integritetspolicy",
  terms: "Villkor",
  cookiePolicy: "Cookiepolicy",
  acceptAll: "Godkänn alla",
  rejectAll: "Neka alla",
  save: "Spara val",
  close: "Stäng",
  details: "Detaljer",
  dataUsed: "Uppgifter som används",
  controller: "Personuppgiftsansvarig",
  processor: "Personuppgiftsbiträde",
  recipient: "Mottagare",
  consent: "Samtycke",
  contract: "Fullgörande av avtal",
  legitimateInterests: "Berättigade intressen",
  legalObligation: "Rättslig förpliktelse",
  object: "Invänd",
  objectionSent: "Invändning skickad",
  new: "Ny",
  gpc: "Din webbläsare skickar Global Privacy Control, så samtycken är avstängda från början.",
  serviceDown: "Integritetstjänsten gick inte att nå, så inget sparades.",
  retry: "Försök igen",
  saved: "Dina val har sparats.",
  thisSite: "Den här webbplatsen",
  noticeOptIn:
    "{c} vill, med ditt samtycke, använda dina uppgifter för de ändamål du ser under Anpassa. Du kan ändra dina val när som helst.",
  noticeOptOut:
    "{c} använder dina uppgifter enligt Dina integritetsval, vilket kan innebära att de delas med partner. Du kan tacka nej när som helst.",
  noticeOnly: "{c} använder dina uppgifter enligt Dina integritetsval, där du också kan invända.",
  customize: "Anpassa",
  gpcApplied:
    "Din webbläsare skickar Global Privacy Control, så du har tackat nej till försäljning och delning av dina uppgifter.",
  ok: "OK",
  offline: "Ditt val sparas på den här enheten och skickas när integritetstjänsten svarar.",
  downloadReceipt: "Ladda ner kvitto",
  exempt: "Kräver inget samtycke",
} satisfies Strings;
