// Italian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Noi e i nostri {c} fornitori archiviamo e/o accediamo a informazioni su un dispositivo e trattiamo dati personali per le finalità indicate di seguito.",
  objectNote: "Alcuni fornitori trattano dati personali sulla base del proprio legittimo interesse, al quale è possibile opporsi in «Personalizza».",
  vendorList: "Elenco dei fornitori",
  retention: "conservati per {c} giorni",
  features: "Finalità speciali e funzionalità",
} satisfies TcfStrings;
