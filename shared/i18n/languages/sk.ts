import type { Strings } from "../strings";

/* Slovak: polite "vy", as Slovak sites address visitors. Roles: prevádzkovateľ = controller, sprostredkovateľ = processor. */
export default {
  title: "Vaše nastavenia súkromia",
  intro: "{c} chce používať vaše údaje, ako je opísané nižšie. Svoje rozhodnutie môžete kedykoľvek zmeniť.",
  privacyPolicy: "Ochrana osobných údajov",
  terms: "Podmienky používania",
  cookiePolicy: "Zásady používania cookies",
  acceptAll: "Prijať všetko",
  rejectAll: "Odmietnuť všetko",
  save: "Uložiť výber",
  close: "Zavrieť",
  details: "Podrobnosti",
  dataUsed: "Používané údaje",
  controller: "Prevádzkovateľ",
  processor: "Sprostredkovateľ",
  recipient: "Príjemca",
  consent: "Súhlas",
  contract: "Plnenie zmluvy",
  legitimateInterests: "Oprávnené záujmy",
  legalObligation: "Splnenie zákonnej povinnosti",
  object: "Namietať",
  objectionSent: "Námietka odoslaná",
  new: "Nový",
  gpc: "Váš prehliadač posiela signál Global Privacy Control, preto je súhlas na začiatku vypnutý.",
  serviceDown: "Službu ochrany súkromia sa nepodarilo kontaktovať, preto sa nič neuložilo.",
  retry: "Skúsiť znova",
  saved: "Váš výber bol uložený.",
  thisSite: "Táto stránka",
  noticeOptIn:
    "{c} chce s vaším súhlasom používať vaše údaje na účely, ktoré si môžete pozrieť v časti „Prispôsobiť“. Svoje rozhodnutie môžete kedykoľvek zmeniť.",
  noticeOptOut:
    "{c} používa vaše údaje, ako je opísané v časti „Vaše nastavenia súkromia“, čo môže zahŕňať aj ich zdieľanie s partnermi. Môžete to kedykoľvek odmietnuť.",
  noticeOnly: "{c} používa vaše údaje, ako je opísané v časti „Vaše nastavenia súkromia“, kde môžete aj namietať.",
  customize: "Prispôsobiť",
  gpcApplied:
    "Váš prehliadač posiela signál Global Privacy Control, preto sa vaše údaje nebudú predávať ani zdieľať.",
  ok: "OK",
  offline: "Vaša voľba zostáva uložená v tomto zariadení a odošle sa, keď služba ochrany súkromia odpovie.",
  downloadReceipt: "Stiahnuť potvrdenie",
  exempt: "Nevyžaduje súhlas",
} satisfies Strings;
