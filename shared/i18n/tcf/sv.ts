// Swedish.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Vi och våra {c} leverantörer lagrar och/eller får åtkomst till information på en enhet och behandlar personuppgifter för ändamålen nedan.",
  objectNote: "Vissa leverantörer behandlar personuppgifter med stöd av sitt berättigade intresse, vilket du kan invända mot under Anpassa.",
  vendorList: "Leverantörslista",
  retention: "sparas i {c} dagar",
  features: "Särskilda ändamål och funktioner",
} satisfies TcfStrings;
