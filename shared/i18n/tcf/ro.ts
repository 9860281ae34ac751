// Romanian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Noi și furnizorii noștri ({c}) stocăm și/sau accesăm informații pe un dispozitiv și prelucrăm date cu caracter personal în scopurile de mai jos.",
  objectNote: "Unii furnizori prelucrează date cu caracter personal pe baza interesului lor legitim, căruia vă puteți opune în „Personalizează”.",
  vendorList: "Lista furnizorilor",
  retention: "păstrate {c} zile",
  features: "Scopuri speciale și funcționalități",
} satisfies TcfStrings;
