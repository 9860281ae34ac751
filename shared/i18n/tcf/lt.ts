// Lithuanian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Mes ir mūsų tiekėjai ({c}) saugome informaciją įrenginyje ir (arba) ją pasiekiame bei tvarkome asmens duomenis toliau nurodytais tikslais.",
  objectNote: "Kai kurie tiekėjai tvarko asmens duomenis remdamiesi savo teisėtu interesu; tam galite nepritarti skiltyje „Tinkinti“.",
  vendorList: "Tiekėjų sąrašas",
  retention: "saugoma {c} d.",
  features: "Specialūs tikslai ir funkcijos",
  storage: "Saugojimas jūsų įrenginyje",
  cookies: "Naudoja slapukus: {c}",
  cookie: "slapukas",
  web: "žiniatinklio saugykla",
  app: "programėlės saugykla",
  maxAge: "iki {c} d.",
  session: "tik seanso metu",
  refreshed: "atnaujinamas kiekvieno apsilankymo metu",
  noCookies: "Slapukų nenaudoja",
  otherAccess: "Kitas saugojimas ar prieiga įrenginyje, pvz., žiniatinklio saugykla",
  unavailable: "Nepavyko įkelti tiekėjo saugojimo duomenų.",
  notAllowed: "Ši svetainė neleidžia",
  acProviders: "„Google“ reklamos technologijų teikėjai",
  acNote: "Jų nėra IAB tiekėjų sąraše: „Google“ papildomo sutikimo eilutė perduoda jiems jūsų sutikimą, kuriam taip pat reikia jūsų sutikimo saugoti informaciją įrenginyje ir ją pasiekti.",
  examples: "Pavyzdžiai",
} satisfies TcfStrings;
