// Bosnian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Mi i naši dobavljači ({c}) pohranjujemo i/ili pristupamo informacijama na uređaju i obrađujemo lične podatke u svrhe navedene ispod.",
  objectNote: "Neki dobavljači obrađuju lične podatke na osnovu svog legitimnog interesa, na šta možete uložiti prigovor pod „Prilagodi“.",
  vendorList: "Lista dobavljača",
  retention: "čuva se {c} dana",
  features: "Posebne svrhe i funkcije",
} satisfies TcfStrings;
