import type { Strings } from "../strings";

/* Polish: "Ty" with the capitalised Twój/Twoja that Polish consent banners use. */
export default {
  title: "Ustawienia prywatności",
  intro: "{c} chce wykorzystywać Twoje dane w sposób opisany poniżej. W każdej chwili możesz zmienić zdanie.",
  privacyPolicy: "Polityka prywatności",
  terms: "Regulamin",
  cookiePolicy: "Polityka cookies",
  acceptAll: "Akceptuj wszystkie",
  rejectAll: "Odrzuć wszystkie",
  save: "Zapisz wybór",
  close: "Zamknij",
  details: "Szczegóły",
  dataUsed: "Wykorzystywane dane",
  controller: "Administrator",
  processor: "Podmiot przetwarzający",
  recipient: "Odbiorca",
  consent: "Zgoda",
  contract: "Wykonanie umowy",
  legitimateInterests: "Prawnie uzasadnione interesy",
  legalObligation: "Wypełnienie obowiązku prawnego",
  object: "Zgłoś sprzeciw",
  objectionSent: "Sprzeciw zgłoszony",
  new: "Nowy",
  gpc: "Twoja przeglądarka wysyła sygnał Global Privacy Control, więc zgody są domyślnie wyłączone.",
  serviceDown: "Nie udało się połączyć z usługą prywatności, więc nic nie zostało zapisane.",
  retry: "Spróbuj ponownie",
  saved: "Twój wybór został zapisany.",
  thisSite: "Ta witryna",
  noticeOptIn:
    "{c} chce wykorzystywać Twoje dane, za Twoją zgodą, w celach, które możesz przejrzeć w sekcji „Dostosuj”. W każdej chwili możesz zmienić zdanie.",
  noticeOptOut:
    "{c} wykorzystuje Twoje dane w sposób opisany w sekcji „Ustawienia prywatności”, co może obejmować udostępnianie ich partnerom. W każdej chwili możesz z tego zrezygnować.",
  noticeOnly: "{c} wykorzystuje Twoje dane w sposób opisany w sekcji „Ustawienia prywatności”, gdzie możesz też zgłosić sprzeciw.",
  customize: "Dostosuj",
  gpcApplied:
    "Twoja przeglądarka wysyła sygnał Global Privacy Control, więc Twoje dane nie będą sprzedawane ani udostępniane.",
  ok: "OK",
  offline: "Twój wybór jest zapisany na tym urządzeniu i zostanie wysłany, gdy usługa prywatności odpowie.",
  downloadReceipt: "Pobierz potwierdzenie",
  exempt: "Nie wymaga zgody",
} satisfies Strings;
