// German.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Wir und unsere {c} Anbieter speichern Informationen auf einem Gerät und/oder greifen darauf zu und verarbeiten personenbezogene Daten für die unten genannten Zwecke.",
  objectNote: "Einige Anbieter verarbeiten personenbezogene Daten auf Grundlage ihres berechtigten Interesses; dem können Sie unter „Anpassen“ widersprechen.",
  vendorList: "Anbieterliste",
  retention: "{c} Tage gespeichert",
  features: "Besondere Zwecke und Funktionen",
} satisfies TcfStrings;
