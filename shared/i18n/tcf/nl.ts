// Dutch.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Wij en onze {c} leveranciers slaan informatie op een apparaat op en/of openen deze en verwerken persoonsgegevens voor de onderstaande doeleinden.",
  objectNote: "Sommige leveranciers verwerken persoonsgegevens op basis van hun gerechtvaardigd belang; daartegen kunt u bezwaar maken onder ‘Aanpassen’.",
  vendorList: "Leverancierslijst",
  retention: "{c} dagen bewaard",
  features: "Speciale doeleinden en functies",
  storage: "Opslag op uw apparaat",
  cookies: "Gebruikt cookies: {c}",
  cookie: "een cookie",
  web: "webopslag",
  app: "app-opslag",
  maxAge: "tot {c} dagen",
  session: "alleen voor de sessie",
  refreshed: "bij elk bezoek vernieuwd",
  noCookies: "Geen cookies",
  otherAccess: "Andere opslag of toegang op het apparaat, zoals webopslag",
  unavailable: "De opslaggegevens van de leverancier konden niet worden geladen.",
  notAllowed: "Niet toegestaan door deze site",
  acProviders: "Advertentietechnologieleveranciers van Google",
  acNote: "Niet op de leverancierslijst van IAB: de Additional Consent-string van Google geeft hun uw toestemming door, waarvoor ook uw toestemming nodig is voor het opslaan van en de toegang tot informatie op een apparaat.",
  examples: "Voorbeelden",
} satisfies TcfStrings;
