// Spanish.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Nosotros y nuestros {c} proveedores almacenamos y/o accedemos a información en un dispositivo y tratamos datos personales para los fines indicados a continuación.",
  objectNote: "Algunos proveedores tratan datos personales sobre la base de su interés legítimo, al que puede oponerse en «Personalizar».",
  vendorList: "Lista de proveedores",
  retention: "se conservan {c} días",
  features: "Fines especiales y funciones",
} satisfies TcfStrings;
