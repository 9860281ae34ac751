// Bosnian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Mi i naši dobavljači ({c}) pohranjujemo i/ili pristupamo informacijama na uređaju i obrađujemo lične podatke u svrhe navedene ispod.",
  objectNote: "Neki dobavljači obrađuju lične podatke na osnovu svog legitimnog interesa, na šta možete uložiti prigovor pod „Prilagodi“.",
  vendorList: "Lista dobavljača",
  retention: "čuva se {c} dana",
  features: "Posebne svrhe i funkcije",
  storage: "Pohrana na vašem uređaju",
  cookies: "Koristi kolačiće: {c}",
  cookie: "kolačić",
  web: "web pohrana",
  app: "pohrana aplikacije",
  maxAge: "do {c} dana",
  session: "samo za sesiju",
  refreshed: "obnavlja se pri svakoj posjeti",
  noCookies: "Bez kolačića",
  otherAccess: "Druga pohrana ili pristup na uređaju, npr. web pohrana",
  unavailable: "Podaci dobavljača o pohrani nisu se mogli učitati.",
  notAllowed: "Ova stranica ne dozvoljava",
  acProviders: "Googleovi pružaoci oglasnih tehnologija",
  acNote: "Nisu na IAB-ovoj listi dobavljača: Googleov niz dodatne saglasnosti prenosi im vašu saglasnost, za koju je potrebna i vaša saglasnost za pohranu informacija na uređaju i pristup njima.",
  examples: "Primjeri",
} satisfies TcfStrings;
