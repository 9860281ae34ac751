// Icelandic.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Við og söluaðilar okkar ({c}) geymum og/eða nálgumst upplýsingar í tæki og vinnum persónuupplýsingar í þeim tilgangi sem lýst er hér að neðan.",
  objectNote: "Sumir söluaðilar vinna persónuupplýsingar á grundvelli lögmætra hagsmuna sinna og þú getur andmælt því undir Sérsníða.",
  vendorList: "Listi yfir söluaðila",
  retention: "geymt í {c} daga",
  features: "Sérstakur tilgangur og eiginleikar",
} satisfies TcfStrings;
