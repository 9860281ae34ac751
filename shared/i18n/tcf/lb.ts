// Luxembourgish.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Mir an eis Ubidder ({c}) späicheren Informatiounen op engem Apparat an/oder gräifen drop zou a veraarbechte perséinlech Donnéeë fir d'Zwecker hei drënner.",
  objectNote: "E puer Ubidder veraarbechte perséinlech Donnéeën op Basis vun hirem berechtegten Interessi; dogéint kënnt Dir Iech ënner Upassen widdersetzen.",
  vendorList: "Lëscht vun den Ubidder",
  retention: "{c} Deeg gespäichert",
  features: "Besonnesch Zwecker a Funktiounen",
} satisfies TcfStrings;
