// Norwegian Nynorsk.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Vi og dei {c} leverandørane våre lagrar og/eller får tilgang til informasjon på ei eining og behandlar personopplysningar for føremåla nedanfor.",
  objectNote: "Nokre leverandørar behandlar personopplysningar på grunnlag av den berettiga interessa si, som du kan protestere mot under Tilpass.",
  vendorList: "Leverandørliste",
  retention: "lagra i {c} dagar",
  features: "Spesielle føremål og funksjonar",
} satisfies TcfStrings;
