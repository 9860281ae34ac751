// Romansh.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Nus e noss furniturs ({c}) memorisain e/u accessain ad infurmaziuns sin in apparat ed elavurain datas persunalas per ils intents sutvart.",
  objectNote: "Intgins furniturs elavuran datas persunalas sin basa da lur interess legitim; cunter quai pudais Vus far opposiziun sut Adattar.",
  vendorList: "Glista dals furniturs",
  retention: "memorisà {c} dis",
  features: "Intents spezials e funcziuns",
} satisfies TcfStrings;
