// Czech.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "My a naši dodavatelé ({c}) ukládáme a/nebo zpřístupňujeme informace v zařízení a zpracováváme osobní údaje pro níže uvedené účely.",
  objectNote: "Někteří dodavatelé zpracovávají osobní údaje na základě svého oprávněného zájmu, proti čemuž můžete vznést námitku v části „Přizpůsobit“.",
  vendorList: "Seznam dodavatelů",
  retention: "uchováváno {c} dní",
  features: "Zvláštní účely a funkce",
  storage: "Ukládání ve vašem zařízení",
  cookies: "Používá soubory cookie: {c}",
  cookie: "soubor cookie",
  web: "webové úložiště",
  app: "úložiště aplikace",
  maxAge: "až {c} dní",
  session: "pouze po dobu relace",
  refreshed: "obnovuje se při každé návštěvě",
  noCookies: "Bez souborů cookie",
  otherAccess: "Jiné ukládání nebo přístup v zařízení, například webové úložiště",
  unavailable: "Údaje dodavatele o ukládání se nepodařilo načíst.",
  notAllowed: "Tento web nepovoluje",
  acProviders: "Poskytovatelé reklamních technologií Googlu",
  acNote: "Nejsou v seznamu dodavatelů IAB: řetězec dodatečného souhlasu Googlu jim předává váš souhlas, který vyžaduje také váš souhlas s ukládáním informací v zařízení a přístupem k nim.",
  examples: "Příklady",
} satisfies TcfStrings;
