// Welsh.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Rydyn ni a'n gwerthwyr ({c}) yn storio a/neu'n cyrchu gwybodaeth ar ddyfais ac yn prosesu data personol at y dibenion isod.",
  objectNote: "Mae rhai gwerthwyr yn prosesu data personol ar sail eu buddiant dilys, a gallwch wrthwynebu hynny o dan Addasu.",
  vendorList: "Rhestr gwerthwyr",
  retention: "yn cael ei gadw am {c} diwrnod",
  features: "Dibenion arbennig a nodweddion",
  storage: "Storio ar eich dyfais",
  cookies: "Yn defnyddio cwcis: {c}",
  cookie: "cwci",
  web: "storfa we",
  app: "storfa ap",
  maxAge: "hyd at {c} diwrnod",
  session: "ar gyfer y sesiwn yn unig",
  refreshed: "yn cael ei adnewyddu ar bob ymweliad",
  noCookies: "Dim cwcis",
  otherAccess: "Storio neu fynediad arall ar y ddyfais, fel storfa we",
  unavailable: "Nid oedd modd llwytho manylion storio'r gwerthwr.",
  notAllowed: "Nid yw'r wefan hon yn caniatáu",
  acProviders: "Darparwyr Technoleg Hysbysebu Google",
  acNote: "Nid ydynt ar restr gwerthwyr IAB: mae llinyn Cydsyniad Ychwanegol Google yn trosglwyddo eich cydsyniad iddynt, sydd hefyd angen eich cydsyniad i storio a chyrchu gwybodaeth ar ddyfais.",
  examples: "Enghreifftiau",
} satisfies TcfStrings;
