// Latvian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Mēs un mūsu piegādātāji ({c}) glabājam un/vai piekļūstam informācijai ierīcē un apstrādājam personas datus tālāk norādītajiem nolūkiem.",
  objectNote: "Daži piegādātāji apstrādā personas datus, pamatojoties uz savām leģitīmajām interesēm; pret to varat iebilst sadaļā „Pielāgot”.",
  vendorList: "Piegādātāju saraksts",
  retention: "glabā {c} d.",
  features: "Īpaši nolūki un funkcijas",
} satisfies TcfStrings;
