// Danish.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Vi og vores {c} leverandører lagrer og/eller tilgår oplysninger på en enhed og behandler personoplysninger til formålene nedenfor.",
  objectNote: "Nogle leverandører behandler personoplysninger på grundlag af deres legitime interesse, hvilket du kan gøre indsigelse mod under »Tilpas«.",
  vendorList: "Leverandørliste",
  retention: "opbevares i {c} dage",
  features: "Særlige formål og funktioner",
} satisfies TcfStrings;
