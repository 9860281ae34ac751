// Croatian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Mi i naši dobavljači ({c}) pohranjujemo i/ili pristupamo informacijama na uređaju i obrađujemo osobne podatke u dolje navedene svrhe.",
  objectNote: "Neki dobavljači obrađuju osobne podatke na temelju svojeg legitimnog interesa, čemu se možete usprotiviti pod „Prilagodi“.",
  vendorList: "Popis dobavljača",
  retention: "čuva se {c} dana",
  features: "Posebne svrhe i značajke",
} satisfies TcfStrings;
