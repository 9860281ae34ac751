// Welsh.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Rydyn ni a'n gwerthwyr ({c}) yn storio a/neu'n cyrchu gwybodaeth ar ddyfais ac yn prosesu data personol at y dibenion isod.",
  objectNote: "Mae rhai gwerthwyr yn prosesu data personol ar sail eu buddiant dilys, a gallwch wrthwynebu hynny o dan Addasu.",
  vendorList: "Rhestr gwerthwyr",
  retention: "yn cael ei gadw am {c} diwrnod",
  features: "Dibenion arbennig a nodweddion",
} satisfies TcfStrings;
