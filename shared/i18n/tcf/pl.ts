// Polish.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "My i nasi dostawcy ({c}) przechowujemy informacje na urządzeniu i/lub uzyskujemy do nich dostęp oraz przetwarzamy dane osobowe w celach wymienionych poniżej.",
  objectNote: "Niektórzy dostawcy przetwarzają dane osobowe na podstawie swojego prawnie uzasadnionego interesu, wobec czego możesz wnieść sprzeciw w sekcji „Dostosuj”.",
  vendorList: "Lista dostawców",
  retention: "przechowywane przez {c} dni",
  features: "Cele specjalne i funkcje",
  storage: "Przechowywanie na Twoim urządzeniu",
  cookies: "Używa plików cookie: {c}",
  cookie: "plik cookie",
  web: "pamięć internetowa",
  app: "pamięć aplikacji",
  maxAge: "do {c} dni",
  session: "tylko na czas sesji",
  refreshed: "odnawiany przy każdej wizycie",
  noCookies: "Bez plików cookie",
  otherAccess: "Inne przechowywanie lub dostęp na urządzeniu, np. pamięć internetowa",
  unavailable: "Nie udało się wczytać informacji dostawcy o przechowywaniu.",
  notAllowed: "Niedozwolone przez tę witrynę",
  acProviders: "Dostawcy technologii reklamowych Google",
  acNote: "Nie ma ich na liście dostawców IAB: ciąg dodatkowej zgody Google przekazuje im Twoją zgodę, która wymaga też Twojej zgody na przechowywanie informacji na urządzeniu i dostęp do nich.",
  examples: "Przykłady",
} satisfies TcfStrings;
