// Hungarian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Mi és partnereink ({c}) információkat tárolunk egy eszközön és/vagy hozzáférünk azokhoz, valamint személyes adatokat kezelünk az alábbi célokra.",
  objectNote: "Egyes partnerek jogos érdekük alapján kezelnek személyes adatokat, amely ellen a(z) „Testreszabás” részben tiltakozhat.",
  vendorList: "Partnerek listája",
  retention: "{c} napig őrizzük",
  features: "Különleges célok és funkciók",
  storage: "Tárolás az Ön eszközén",
  cookies: "Sütiket használ: {c}",
  cookie: "egy süti",
  web: "webes tárhely",
  app: "alkalmazástárhely",
  maxAge: "legfeljebb {c} napig",
  session: "csak a munkamenet idejére",
  refreshed: "minden látogatáskor megújul",
  noCookies: "Nem használ sütiket",
  otherAccess: "Más tárolás vagy hozzáférés az eszközön, például webes tárhely",
  unavailable: "A partner tárolási adatait nem sikerült betölteni.",
  notAllowed: "Ez a webhely nem engedélyezi",
  acProviders: "A Google hirdetéstechnológiai szolgáltatói",
  acNote: "Nem szerepelnek az IAB partnerlistáján: a Google kiegészítő hozzájárulási karakterlánca továbbítja nekik a hozzájárulását, amelyhez az is kell, hogy hozzájáruljon az információk eszközön való tárolásához és az azokhoz való hozzáféréshez.",
  examples: "Példák",
} satisfies TcfStrings;
