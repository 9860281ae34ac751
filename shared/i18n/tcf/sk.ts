// Slovak.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "My a naši dodávatelia ({c}) ukladáme informácie v zariadení a/alebo k nim pristupujeme a spracúvame osobné údaje na účely uvedené nižšie.",
  objectNote: "Niektorí dodávatelia spracúvajú osobné údaje na základe svojho oprávneného záujmu, proti čomu môžete namietať v časti „Prispôsobiť“.",
  vendorList: "Zoznam dodávateľov",
  retention: "uchovávané {c} dní",
  features: "Osobitné účely a funkcie",
} satisfies TcfStrings;
