// Estonian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Meie ja meie partnerid ({c}) salvestame teavet seadmesse ja/või pääseme sellele juurde ning töötleme isikuandmeid allpool nimetatud eesmärkidel.",
  objectNote: "Mõned partnerid töötlevad isikuandmeid oma õigustatud huvi alusel; sellele saate vastuväite esitada jaotises „Kohanda“.",
  vendorList: "Partnerite loend",
  retention: "säilitatakse {c} päeva",
  features: "Erieesmärgid ja funktsioonid",
  storage: "Salvestamine teie seadmes",
  cookies: "Kasutab küpsiseid: {c}",
  cookie: "küpsis",
  web: "veebisalvestus",
  app: "rakenduse salvestus",
  maxAge: "kuni {c} päeva",
  session: "ainult seansi ajaks",
  refreshed: "uueneb igal külastusel",
  noCookies: "Küpsiseid ei kasuta",
  otherAccess: "Muu salvestamine või juurdepääs seadmes, näiteks veebisalvestus",
  unavailable: "Partneri salvestusandmeid ei õnnestunud laadida.",
  notAllowed: "See sait ei luba",
  acProviders: "Google'i reklaamitehnoloogia pakkujad",
  acNote: "Ei ole IAB partnerite loendis: Google'i lisanõusoleku string edastab neile teie nõusoleku, mis eeldab ka teie nõusolekut seadmes teabe salvestamiseks ja sellele juurdepääsuks.",
  examples: "Näited",
} satisfies TcfStrings;
