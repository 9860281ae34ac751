// Albanian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Ne dhe shitësit tanë ({c}) ruajmë dhe/ose aksesojmë informacione në një pajisje dhe përpunojmë të dhëna personale për qëllimet më poshtë.",
  objectNote: "Disa shitës përpunojnë të dhëna personale në bazë të interesit të tyre legjitim, të cilit mund t'i kundërshtoni te Personalizo.",
  vendorList: "Lista e shitësve",
  retention: "ruhen për {c} ditë",
  features: "Qëllime të veçanta dhe veçori",
} satisfies TcfStrings;
