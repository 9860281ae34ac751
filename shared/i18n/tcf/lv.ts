// Latvian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Mēs un mūsu piegādātāji ({c}) glabājam un/vai piekļūstam informācijai ierīcē un apstrādājam personas datus tālāk norādītajiem nolūkiem.",
  objectNote: "Daži piegādātāji apstrādā personas datus, pamatojoties uz savām leģitīmajām interesēm; pret to varat iebilst sadaļā „Pielāgot”.",
  vendorList: "Piegādātāju saraksts",
  retention: "glabā {c} d.",
  features: "Īpaši nolūki un funkcijas",
  storage: "Glabāšana jūsu ierīcē",
  cookies: "Izmanto sīkdatnes: {c}",
  cookie: "sīkdatne",
  web: "tīmekļa krātuve",
  app: "lietotnes krātuve",
  maxAge: "līdz {c} dienām",
  session: "tikai sesijas laikā",
  refreshed: "atjaunota katrā apmeklējumā",
  noCookies: "Sīkdatnes neizmanto",
  otherAccess: "Cita glabāšana vai piekļuve ierīcē, piemēram, tīmekļa krātuve",
  unavailable: "Piegādātāja glabāšanas datus neizdevās ielādēt.",
  notAllowed: "Šī vietne neatļauj",
  acProviders: "Google reklāmas tehnoloģiju nodrošinātāji",
  acNote: "Nav IAB piegādātāju sarakstā: Google papildu piekrišanas virkne nodod viņiem jūsu piekrišanu, kurai nepieciešama arī jūsu piekrišana informācijas glabāšanai ierīcē un piekļuvei tai.",
  examples: "Piemēri",
} satisfies TcfStrings;
