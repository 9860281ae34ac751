// Luxembourgish.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Mir an eis Ubidder ({c}) späicheren Informatiounen op engem Apparat an/oder gräifen drop zou a veraarbechte perséinlech Donnéeë fir d'Zwecker hei drënner.",
  objectNote: "E puer Ubidder veraarbechte perséinlech Donnéeën op Basis vun hirem berechtegten Interessi; dogéint kënnt Dir Iech ënner Upassen widdersetzen.",
  vendorList: "Lëscht vun den Ubidder",
  retention: "{c} Deeg gespäichert",
  features: "Besonnesch Zwecker a Funktiounen",
  storage: "Späicherung op Ärem Apparat",
  cookies: "Benotzt Cookien: {c}",
  cookie: "e Cookie",
  web: "Webspäicher",
  app: "App-Späicher",
  maxAge: "bis zu {c} Deeg",
  session: "nëmme fir d'Sessioun",
  refreshed: "bei all Visite erneiert",
  noCookies: "Keng Cookien",
  otherAccess: "Aner Späicherung oder aneren Zougrëff um Apparat, z. B. Webspäicher",
  unavailable: "D'Späicherdetailer vum Ubidder konnten net gelueden ginn.",
  notAllowed: "Vun dësem Site net erlaabt",
  acProviders: "Google seng Ad-Tech-Ubidder",
  acNote: "Net op der Ubidderlëscht vum IAB: Google säin Additional-Consent-String iwwermëttelt hinnen Är Zoustëmmung, déi och Är Zoustëmmung fir d'Späicheren vun an den Zougrëff op Informatiounen op engem Apparat viraussetzt.",
  examples: "Beispiller",
} satisfies TcfStrings;
