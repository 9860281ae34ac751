// Catalan.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Nosaltres i els nostres {c} proveïdors emmagatzemem i/o accedim a informació d'un dispositiu i tractem dades personals per a les finalitats següents.",
  objectNote: "Alguns proveïdors tracten dades personals sobre la base del seu interès legítim, al qual us podeu oposar a Personalitzar.",
  vendorList: "Llista de proveïdors",
  retention: "conservades {c} dies",
  features: "Finalitats especials i funcions",
} satisfies TcfStrings;
