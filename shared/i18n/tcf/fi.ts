// Finnish.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Me ja kumppanimme ({c}) tallennamme tietoja laitteelle ja/tai käytämme niitä sekä käsittelemme henkilötietoja alla kuvattuihin tarkoituksiin.",
  objectNote: "Jotkin kumppanit käsittelevät henkilötietoja oikeutetun etunsa perusteella; voit vastustaa sitä kohdassa ”Mukauta”.",
  vendorList: "Kumppaniluettelo",
  retention: "säilytetään {c} päivää",
  features: "Erityistarkoitukset ja ominaisuudet",
} satisfies TcfStrings;
