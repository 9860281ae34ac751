// Galician.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Nós e os nosos {c} provedores almacenamos e/ou accedemos a información nun dispositivo e tratamos datos persoais para os fins indicados a continuación.",
  objectNote: "Algúns provedores tratan datos persoais sobre a base do seu interese lexítimo, ao que pode oporse en Personalizar.",
  vendorList: "Lista de provedores",
  retention: "consérvanse {c} días",
  features: "Fins especiais e funcións",
} satisfies TcfStrings;
