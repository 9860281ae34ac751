// Danish.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Vi og vores {c} leverandører lagrer og/eller tilgår oplysninger på en enhed og behandler personoplysninger til formålene nedenfor.",
  objectNote: "Nogle leverandører behandler personoplysninger på grundlag af deres legitime interesse, hvilket du kan gøre indsigelse mod under »Tilpas«.",
  vendorList: "Leverandørliste",
  retention: "opbevares i {c} dage",
  features: "Særlige formål og funktioner",
  storage: "Lagring på din enhed",
  cookies: "Bruger cookies: {c}",
  cookie: "en cookie",
  web: "weblager",
  app: "applager",
  maxAge: "op til {c} dage",
  session: "kun for sessionen",
  refreshed: "fornyes ved hvert besøg",
  noCookies: "Ingen cookies",
  otherAccess: "Anden lagring eller adgang på enheden, f.eks. weblager",
  unavailable: "Leverandørens oplysninger om lagring kunne ikke indlæses.",
  notAllowed: "Ikke tilladt af dette websted",
  acProviders: "Googles annonceteknologiudbydere",
  acNote: "Ikke på IAB's leverandørliste: Googles Additional Consent-streng videregiver dit samtykke til dem, hvilket også kræver dit samtykke til lagring af og adgang til oplysninger på en enhed.",
  examples: "Eksempler",
} satisfies TcfStrings;
