// Maltese.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Aħna u l-fornituri tagħna ({c}) naħżnu u/jew naċċessaw informazzjoni fuq apparat u nipproċessaw data personali għall-għanijiet hawn taħt.",
  objectNote: "Xi fornituri jipproċessaw data personali abbażi tal-interess leġittimu tagħhom, li tista' toġġezzjona għalih taħt “Ippersonalizza”.",
  vendorList: "Lista tal-fornituri",
  retention: "miżmuma għal {c} jiem",
  features: "Għanijiet speċjali u karatteristiċi",
} satisfies TcfStrings;
