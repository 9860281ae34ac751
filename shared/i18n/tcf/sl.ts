// Slovenian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Mi in naši ponudniki ({c}) shranjujemo informacije v napravi in/ali dostopamo do njih ter obdelujemo osebne podatke za spodnje namene.",
  objectNote: "Nekateri ponudniki obdelujejo osebne podatke na podlagi svojega zakonitega interesa, čemur lahko ugovarjate pod „Prilagodi“.",
  vendorList: "Seznam ponudnikov",
  retention: "hranjeno {c} dni",
  features: "Posebni nameni in funkcije",
  storage: "Shranjevanje v vaši napravi",
  cookies: "Uporablja piškotke: {c}",
  cookie: "piškotek",
  web: "spletna shramba",
  app: "shramba aplikacije",
  maxAge: "do {c} dni",
  session: "samo za sejo",
  refreshed: "obnovi se ob vsakem obisku",
  noCookies: "Brez piškotkov",
  otherAccess: "Drugo shranjevanje ali dostop v napravi, npr. spletna shramba",
  unavailable: "Podatkov ponudnika o shranjevanju ni bilo mogoče naložiti.",
  notAllowed: "To spletno mesto ne dovoli",
  acProviders: "Googlovi ponudniki oglaševalske tehnologije",
  acNote: "Niso na IAB-jevem seznamu ponudnikov: Googlov niz dodatne privolitve jim posreduje vašo privolitev, za katero je potrebna tudi vaša privolitev v shranjevanje informacij v napravi in dostop do njih.",
  examples: "Primeri",
} satisfies TcfStrings;
