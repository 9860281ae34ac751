// Euskara, zu. Roles and legal grounds as the Basque data protection authority (DBEB/AVPD) words the GDPR:
// tratamenduaren arduraduna / eragilea, hartzailea, adostasuna (preferred over baimena). "{c}(e)k" is the usual
// way to attach the ergative to a name the text cannot know.
import type { Strings } from "../strings";
export default {
  title: "Zure pribatutasun-aukerak",
  intro: "{c}(e)k zure datuak behean azaltzen den moduan erabili nahi ditu. Iritziz alda dezakezu edonoiz.",
  privacyPolicy: "Pribatutasun-politika",
  terms: "Baldintzak",
  cookiePolicy: "Cookie-politika",
  acceptAll: "Onartu guztiak",
  rejectAll: "Baztertu guztiak",
  save: "Gorde aukerak",
  close: "Itxi",
  details: "Xehetasunak",
  dataUsed: "Erabilitako datuak",
  controller: "Tratamenduaren arduraduna",
  processor: "Tratamenduaren eragilea",
  recipient: "Hartzailea",
  consent: "Adostasuna",
  contract: "Kontratu bat betetzea",
  legitimateInterests: "Interes legitimoa",
  legalObligation: "Lege-betebehar bat betetzea",
  object: "Aurka egin",
  objectionSent: "Aurkakotasuna bidali da",
  new: "Berria",
  gpc: "Zure nabigatzaileak Global Privacy Control bidaltzen du; beraz, adostasunak desaktibatuta daude hasieran.",
  serviceDown: "Ezin izan da pribatutasun-zerbitzuarekin konektatu; beraz, ez da ezer gorde.",
  retry: "Saiatu berriro",
  saved: "Zure aukerak gorde dira.",
  thisSite: "Webgune hau",
  noticeOptIn:
    "{c}(e)k zure datuak erabili nahi ditu, zure adostasunarekin, Pertsonalizatu atalean ikus ditzakezun helburuetarako. Iritziz alda dezakezu edonoiz.",
  noticeOptOut:
    "{c}(e)k zure datuak Zure pribatutasun-aukerak atalean azaltzen den moduan erabiltzen ditu, eta baliteke bazkideekin partekatzea. Edonoiz egin diezaiokezu uko.",
  noticeOnly: "{c}(e)k zure datuak Zure pribatutasun-aukerak atalean azaltzen den moduan erabiltzen ditu, eta han aurka ere egin dezakezu.",
  customize: "Pertsonalizatu",
  gpcApplied: "Zure nabigatzaileak Global Privacy Control bidaltzen du; beraz, zure datuak saldu eta partekatzeari uko egin diozu.",
  ok: "Ados",
  offline: "Zure aukera gailu honetan gordetzen da, eta pribatutasun-zerbitzuak erantzuten duenean bidaliko da.",
  downloadReceipt: "Deskargatu agiria",
  exempt: "Ez du adostasunik behar",
} satisfies Strings;
