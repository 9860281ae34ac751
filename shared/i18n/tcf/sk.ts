// Slovak.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "My a naši dodávatelia ({c}) ukladáme informácie v zariadení a/alebo k nim pristupujeme a spracúvame osobné údaje na účely uvedené nižšie.",
  objectNote: "Niektorí dodávatelia spracúvajú osobné údaje na základe svojho oprávneného záujmu, proti čomu môžete namietať v časti „Prispôsobiť“.",
  vendorList: "Zoznam dodávateľov",
  retention: "uchovávané {c} dní",
  features: "Osobitné účely a funkcie",
  storage: "Ukladanie vo vašom zariadení",
  cookies: "Používa súbory cookie: {c}",
  cookie: "súbor cookie",
  web: "webové úložisko",
  app: "úložisko aplikácie",
  maxAge: "až {c} dní",
  session: "len počas relácie",
  refreshed: "obnovuje sa pri každej návšteve",
  noCookies: "Bez súborov cookie",
  otherAccess: "Iné ukladanie alebo prístup v zariadení, napríklad webové úložisko",
  unavailable: "Údaje dodávateľa o ukladaní sa nepodarilo načítať.",
  notAllowed: "Táto stránka nepovoľuje",
  acProviders: "Poskytovatelia reklamných technológií Google",
  acNote: "Nie sú v zozname dodávateľov IAB: reťazec dodatočného súhlasu Google im odovzdáva váš súhlas, ktorý si vyžaduje aj váš súhlas s ukladaním informácií v zariadení a prístupom k nim.",
  examples: "Príklady",
} satisfies TcfStrings;
