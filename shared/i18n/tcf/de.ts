// German.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Wir und unsere {c} Anbieter speichern Informationen auf einem Gerät und/oder greifen darauf zu und verarbeiten personenbezogene Daten für die unten genannten Zwecke.",
  objectNote: "Einige Anbieter verarbeiten personenbezogene Daten auf Grundlage ihres berechtigten Interesses; dem können Sie unter „Anpassen“ widersprechen.",
  vendorList: "Anbieterliste",
  retention: "{c} Tage gespeichert",
  features: "Besondere Zwecke und Funktionen",
  storage: "Speicherung auf Ihrem Gerät",
  cookies: "Verwendet Cookies: {c}",
  cookie: "ein Cookie",
  web: "Webspeicher",
  app: "App-Speicher",
  maxAge: "bis zu {c} Tage",
  session: "nur für die Sitzung",
  refreshed: "bei jedem Besuch erneuert",
  noCookies: "Keine Cookies",
  otherAccess: "Andere Speicherung oder anderer Zugriff auf dem Gerät, etwa Webspeicher",
  unavailable: "Die Speicherangaben des Anbieters konnten nicht geladen werden.",
  notAllowed: "Von dieser Website nicht erlaubt",
  acProviders: "Googles Ad-Tech-Anbieter",
  acNote: "Nicht in der Anbieterliste des IAB: Der Additional-Consent-String von Google übermittelt ihnen Ihre Einwilligung, die auch Ihre Einwilligung zum Speichern von und Zugreifen auf Informationen auf einem Gerät voraussetzt.",
  examples: "Beispiele",
} satisfies TcfStrings;
