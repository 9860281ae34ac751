// Dutch.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Wij en onze {c} leveranciers slaan informatie op een apparaat op en/of openen deze en verwerken persoonsgegevens voor de onderstaande doeleinden.",
  objectNote: "Sommige leveranciers verwerken persoonsgegevens op basis van hun gerechtvaardigd belang; daartegen kunt u bezwaar maken onder ‘Aanpassen’.",
  vendorList: "Leverancierslijst",
  retention: "{c} dagen bewaard",
  features: "Speciale doeleinden en functies",
} satisfies TcfStrings;
