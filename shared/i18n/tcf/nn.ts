// Norwegian Nynorsk.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Vi og dei {c} leverandørane våre lagrar og/eller får tilgang til informasjon på ei eining og behandlar personopplysningar for føremåla nedanfor.",
  objectNote: "Nokre leverandørar behandlar personopplysningar på grunnlag av den berettiga interessa si, som du kan protestere mot under Tilpass.",
  vendorList: "Leverandørliste",
  retention: "lagra i {c} dagar",
  features: "Spesielle føremål og funksjonar",
  storage: "Lagring på eininga di",
  cookies: "Brukar informasjonskapslar: {c}",
  cookie: "ein informasjonskapsel",
  web: "nettlagring",
  app: "applagring",
  maxAge: "opptil {c} dagar",
  session: "berre for økta",
  refreshed: "vert fornya ved kvart besøk",
  noCookies: "Ingen informasjonskapslar",
  otherAccess: "Anna lagring eller tilgang på eininga, til dømes nettlagring",
  unavailable: "Lagringsopplysningane til leverandøren kunne ikkje lastast inn.",
  notAllowed: "Ikkje tillate av denne nettstaden",
  acProviders: "Annonseteknologileverandørane til Google",
  acNote: "Ikkje på leverandørlista til IAB: Additional Consent-strengen til Google formidlar samtykket ditt til dei, noko som òg krev samtykket ditt til lagring av og tilgang til informasjon på ei eining.",
  examples: "Døme",
} satisfies TcfStrings;
