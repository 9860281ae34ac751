// Icelandic.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Við og söluaðilar okkar ({c}) geymum og/eða nálgumst upplýsingar í tæki og vinnum persónuupplýsingar í þeim tilgangi sem lýst er hér að neðan.",
  objectNote: "Sumir söluaðilar vinna persónuupplýsingar á grundvelli lögmætra hagsmuna sinna og þú getur andmælt því undir Sérsníða.",
  vendorList: "Listi yfir söluaðila",
  retention: "geymt í {c} daga",
  features: "Sérstakur tilgangur og eiginleikar",
  storage: "Geymsla á tækinu þínu",
  cookies: "Notar vafrakökur: {c}",
  cookie: "vafrakaka",
  web: "vefgeymsla",
  app: "forritageymsla",
  maxAge: "allt að {c} dagar",
  session: "aðeins meðan á lotu stendur",
  refreshed: "endurnýjuð í hverri heimsókn",
  noCookies: "Engar vafrakökur",
  otherAccess: "Önnur geymsla eða aðgangur á tækinu, t.d. vefgeymsla",
  unavailable: "Ekki tókst að hlaða geymsluupplýsingum söluaðilans.",
  notAllowed: "Ekki leyft af þessum vef",
  acProviders: "Auglýsingatækniveitur Google",
  acNote: "Ekki á söluaðilalista IAB: viðbótarsamþykkisstrengur Google kemur samþykki þínu til þeirra, sem krefst einnig samþykkis þíns fyrir geymslu upplýsinga á tæki og aðgangi að þeim.",
  examples: "Dæmi",
} satisfies TcfStrings;
