// Croatian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Mi i naši dobavljači ({c}) pohranjujemo i/ili pristupamo informacijama na uređaju i obrađujemo osobne podatke u dolje navedene svrhe.",
  objectNote: "Neki dobavljači obrađuju osobne podatke na temelju svojeg legitimnog interesa, čemu se možete usprotiviti pod „Prilagodi“.",
  vendorList: "Popis dobavljača",
  retention: "čuva se {c} dana",
  features: "Posebne svrhe i značajke",
  storage: "Pohrana na vašem uređaju",
  cookies: "Koristi kolačiće: {c}",
  cookie: "kolačić",
  web: "web-pohrana",
  app: "pohrana aplikacije",
  maxAge: "do {c} dana",
  session: "samo za sesiju",
  refreshed: "obnavlja se pri svakom posjetu",
  noCookies: "Bez kolačića",
  otherAccess: "Druga pohrana ili pristup na uređaju, primjerice web-pohrana",
  unavailable: "Podaci dobavljača o pohrani nisu se mogli učitati.",
  notAllowed: "Ova stranica ne dopušta",
  acProviders: "Googleovi pružatelji oglasnih tehnologija",
  acNote: "Nisu na IAB-ovu popisu dobavljača: Googleov niz dodatne privole prenosi im vašu privolu, za koju je potrebna i vaša privola za pohranu informacija na uređaju i pristup njima.",
  examples: "Primjeri",
} satisfies TcfStrings;
