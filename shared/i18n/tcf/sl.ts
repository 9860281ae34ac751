// Slovenian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Mi in naši ponudniki ({c}) shranjujemo informacije v napravi in/ali dostopamo do njih ter obdelujemo osebne podatke za spodnje namene.",
  objectNote: "Nekateri ponudniki obdelujejo osebne podatke na podlagi svojega zakonitega interesa, čemur lahko ugovarjate pod „Prilagodi“.",
  vendorList: "Seznam ponudnikov",
  retention: "hranjeno {c} dni",
  features: "Posebni nameni in funkcije",
} satisfies TcfStrings;
