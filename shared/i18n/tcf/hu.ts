// Hungarian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Mi és partnereink ({c}) információkat tárolunk egy eszközön és/vagy hozzáférünk azokhoz, valamint személyes adatokat kezelünk az alábbi célokra.",
  objectNote: "Egyes partnerek jogos érdekük alapján kezelnek személyes adatokat, amely ellen a(z) „Testreszabás” részben tiltakozhat.",
  vendorList: "Partnerek listája",
  retention: "{c} napig őrizzük",
  features: "Különleges célok és funkciók",
} satisfies TcfStrings;
