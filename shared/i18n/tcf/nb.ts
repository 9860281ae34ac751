// Norwegian Bokmål.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Vi og våre {c} leverandører lagrer og/eller får tilgang til informasjon på en enhet og behandler personopplysninger for formålene nedenfor.",
  objectNote: "Noen leverandører behandler personopplysninger på grunnlag av sin berettigede interesse, som du kan protestere mot under Tilpass.",
  vendorList: "Leverandørliste",
  retention: "lagres i {c} dager",
  features: "Spesielle formål og funksjoner",
  storage: "Lagring på enheten din",
  cookies: "Bruker informasjonskapsler: {c}",
  cookie: "en informasjonskapsel",
  web: "nettlagring",
  app: "applagring",
  maxAge: "opptil {c} dager",
  session: "bare for økten",
  refreshed: "fornyes ved hvert besøk",
  noCookies: "Ingen informasjonskapsler",
  otherAccess: "Annen lagring eller tilgang på enheten, for eksempel nettlagring",
  unavailable: "Leverandørens lagringsopplysninger kunne ikke lastes inn.",
  notAllowed: "Ikke tillatt av dette nettstedet",
  acProviders: "Googles annonseteknologileverandører",
  acNote: "Ikke på IABs leverandørliste: Googles Additional Consent-streng formidler samtykket ditt til dem, noe som også krever samtykket ditt til lagring av og tilgang til informasjon på en enhet.",
  examples: "Eksempler",
} satisfies TcfStrings;
