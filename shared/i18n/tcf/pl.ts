// Polish.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "My i nasi dostawcy ({c}) przechowujemy informacje na urządzeniu i/lub uzyskujemy do nich dostęp oraz przetwarzamy dane osobowe w celach wymienionych poniżej.",
  objectNote: "Niektórzy dostawcy przetwarzają dane osobowe na podstawie swojego prawnie uzasadnionego interesu, wobec czego możesz wnieść sprzeciw w sekcji „Dostosuj”.",
  vendorList: "Lista dostawców",
  retention: "przechowywane przez {c} dni",
  features: "Cele specjalne i funkcje",
} satisfies TcfStrings;
