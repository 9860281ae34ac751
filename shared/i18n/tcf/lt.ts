// Lithuanian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Mes ir mūsų tiekėjai ({c}) saugome informaciją įrenginyje ir (arba) ją pasiekiame bei tvarkome asmens duomenis toliau nurodytais tikslais.",
  objectNote: "Kai kurie tiekėjai tvarko asmens duomenis remdamiesi savo teisėtu interesu; tam galite nepritarti skiltyje „Tinkinti“.",
  vendorList: "Tiekėjų sąrašas",
  retention: "saugoma {c} d.",
  features: "Specialūs tikslai ir funkcijos",
} satisfies TcfStrings;
