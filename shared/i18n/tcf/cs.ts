// Czech.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "My a naši dodavatelé ({c}) ukládáme a/nebo zpřístupňujeme informace v zařízení a zpracováváme osobní údaje pro níže uvedené účely.",
  objectNote: "Někteří dodavatelé zpracovávají osobní údaje na základě svého oprávněného zájmu, proti čemuž můžete vznést námitku v části „Přizpůsobit“.",
  vendorList: "Seznam dodavatelů",
  retention: "uchováváno {c} dní",
  features: "Zvláštní účely a funkce",
} satisfies TcfStrings;
