// Norwegian Bokmål.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Vi og våre {c} leverandører lagrer og/eller får tilgang til informasjon på en enhet og behandler personopplysninger for formålene nedenfor.",
  objectNote: "Noen leverandører behandler personopplysninger på grunnlag av sin berettigede interesse, som du kan protestere mot under Tilpass.",
  vendorList: "Leverandørliste",
  retention: "lagres i {c} dager",
  features: "Spesielle formål og funksjoner",
} satisfies TcfStrings;
