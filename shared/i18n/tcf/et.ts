// Estonian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Meie ja meie partnerid ({c}) salvestame teavet seadmesse ja/või pääseme sellele juurde ning töötleme isikuandmeid allpool nimetatud eesmärkidel.",
  objectNote: "Mõned partnerid töötlevad isikuandmeid oma õigustatud huvi alusel; sellele saate vastuväite esitada jaotises „Kohanda“.",
  vendorList: "Partnerite loend",
  retention: "säilitatakse {c} päeva",
  features: "Erieesmärgid ja funktsioonid",
} satisfies TcfStrings;
