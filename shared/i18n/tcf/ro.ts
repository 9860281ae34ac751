// Romanian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Noi și furnizorii noștri ({c}) stocăm și/sau accesăm informații pe un dispozitiv și prelucrăm date cu caracter personal în scopurile de mai jos.",
  objectNote: "Unii furnizori prelucrează date cu caracter personal pe baza interesului lor legitim, căruia vă puteți opune în „Personalizează”.",
  vendorList: "Lista furnizorilor",
  retention: "păstrate {c} zile",
  features: "Scopuri speciale și funcționalități",
  storage: "Stocare pe dispozitivul dvs.",
  cookies: "Folosește cookie-uri: {c}",
  cookie: "un cookie",
  web: "stocare web",
  app: "stocarea aplicației",
  maxAge: "până la {c} zile",
  session: "doar pe durata sesiunii",
  refreshed: "reînnoit la fiecare vizită",
  noCookies: "Fără cookie-uri",
  otherAccess: "Altă stocare sau alt acces pe dispozitiv, cum ar fi stocarea web",
  unavailable: "Detaliile de stocare ale furnizorului nu au putut fi încărcate.",
  notAllowed: "Nepermis de acest site",
  acProviders: "Furnizorii de tehnologie publicitară Google",
  acNote: "Nu sunt în lista de furnizori IAB: șirul de consimțământ suplimentar Google le transmite consimțământul dvs., care necesită și consimțământul dvs. pentru stocarea informațiilor pe un dispozitiv și accesarea acestora.",
  examples: "Exemple",
} satisfies TcfStrings;
