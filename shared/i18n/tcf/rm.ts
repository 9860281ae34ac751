// Romansh.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Nus e noss furniturs ({c}) memorisain e/u accessain ad infurmaziuns sin in apparat ed elavurain datas persunalas per ils intents sutvart.",
  objectNote: "Intgins furniturs elavuran datas persunalas sin basa da lur interess legitim; cunter quai pudais Vus far opposiziun sut Adattar.",
  vendorList: "Glista dals furniturs",
  retention: "memorisà {c} dis",
  features: "Intents spezials e funcziuns",
  storage: "Memorisaziun sin Voss apparat",
  cookies: "Dovra cookies: {c}",
  cookie: "in cookie",
  web: "memoria web",
  app: "memoria da l'app",
  maxAge: "fin a {c} dis",
  session: "mo per la sessiun",
  refreshed: "renovà a mintga visita",
  noCookies: "Nagins cookies",
  otherAccess: "Autra memorisaziun u auter access sin l'apparat, per exempel memoria web",
  unavailable: "Las indicaziuns da memorisaziun dal furnitur n'han betg pudì vegnir chargiadas.",
  notAllowed: "Betg permess da questa website",
  acProviders: "Ils furniturs da tecnologia da reclama da Google",
  acNote: "Betg sin la glista da furniturs da l'IAB: la sequenza da consentiment supplementar da Google als transmetta Voss consentiment, il qual pretenda er Voss consentiment per memorisar infurmaziuns sin in apparat e per acceder ad ellas.",
  examples: "Exempels",
} satisfies TcfStrings;
