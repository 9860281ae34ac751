// Italian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Noi e i nostri {c} fornitori archiviamo e/o accediamo a informazioni su un dispositivo e trattiamo dati personali per le finalità indicate di seguito.",
  objectNote: "Alcuni fornitori trattano dati personali sulla base del proprio legittimo interesse, al quale è possibile opporsi in «Personalizza».",
  vendorList: "Elenco dei fornitori",
  retention: "conservati per {c} giorni",
  features: "Finalità speciali e funzionalità",
  storage: "Archiviazione sul tuo dispositivo",
  cookies: "Utilizza cookie: {c}",
  cookie: "un cookie",
  web: "archiviazione web",
  app: "archiviazione dell'app",
  maxAge: "fino a {c} giorni",
  session: "solo per la sessione",
  refreshed: "rinnovato a ogni visita",
  noCookies: "Nessun cookie",
  otherAccess: "Altre forme di archiviazione o accesso sul dispositivo, come l'archiviazione web",
  unavailable: "Non è stato possibile caricare i dettagli di archiviazione del fornitore.",
  notAllowed: "Non consentito da questo sito",
  acProviders: "Fornitori di tecnologia pubblicitaria di Google",
  acNote: "Non inclusi nell'elenco dei fornitori IAB: la stringa di Consenso aggiuntivo di Google trasmette loro il tuo consenso, che richiede anche il consenso all'archiviazione di informazioni su un dispositivo e all'accesso a esse.",
  examples: "Esempi",
} satisfies TcfStrings;
