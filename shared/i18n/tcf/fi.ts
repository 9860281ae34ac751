// Finnish.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Me ja kumppanimme ({c}) tallennamme tietoja laitteelle ja/tai käytämme niitä sekä käsittelemme henkilötietoja alla kuvattuihin tarkoituksiin.",
  objectNote: "Jotkin kumppanit käsittelevät henkilötietoja oikeutetun etunsa perusteella; voit vastustaa sitä kohdassa ”Mukauta”.",
  vendorList: "Kumppaniluettelo",
  retention: "säilytetään {c} päivää",
  features: "Erityistarkoitukset ja ominaisuudet",
  storage: "Tallennus laitteellesi",
  cookies: "Käyttää evästeitä: {c}",
  cookie: "eväste",
  web: "verkkotallennus",
  app: "sovelluksen tallennus",
  maxAge: "enintään {c} päivää",
  session: "vain istunnon ajan",
  refreshed: "uusitaan jokaisella käynnillä",
  noCookies: "Ei evästeitä",
  otherAccess: "Muu tallennus tai pääsy laitteella, kuten verkkotallennus",
  unavailable: "Kumppanin tallennustietoja ei voitu ladata.",
  notAllowed: "Tämä sivusto ei salli",
  acProviders: "Googlen mainosteknologiatoimittajat",
  acNote: "Eivät ole IAB:n kumppaniluettelossa: Googlen Additional Consent -merkkijono välittää heille suostumuksesi, joka edellyttää myös suostumustasi tietojen tallentamiseen laitteelle ja niiden käyttöön.",
  examples: "Esimerkkejä",
} satisfies TcfStrings;
