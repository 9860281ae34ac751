import type { Strings } from "../strings";

/* Italian: informal "tu", as Italian consent banners address the visitor. Roles: titolare = controller, responsabile = processor. */
export default {
  title: "Le tue scelte sulla privacy",
  intro: "{c} vorrebbe utilizzare i tuoi dati come descritto di seguito. Puoi cambiare idea in qualsiasi momento.",
  privacyPolicy: "Informativa privacy",
  terms: "Termini e condizioni",
  cookiePolicy: "Informativa sui cookie",
  acceptAll: "Accetta tutto",
  rejectAll: "Rifiuta tutto",
  save: "Salva le scelte",
  close: "Chiudi",
  details: "Dettagli",
  dataUsed: "Dati utilizzati",
  controller: "Titolare del trattamento",
  processor: "Responsabile del trattamento",
  recipient: "Destinatario",
  consent: "Consenso",
  contract: "Esecuzione di un contratto",
  legitimateInterests: "Legittimo interesse",
  legalObligation: "Adempimento di un obbligo legale",
  object: "Opponiti",
  objectionSent: "Opposizione inviata",
  new: "Nuova",
  gpc: "Il tuo browser invia il segnale Global Privacy Control, quindi il consenso è inizialmente disattivato.",
  serviceDown: "Non è stato possibile raggiungere il servizio privacy, quindi non è stato salvato nulla.",
  retry: "Riprova",
  saved: "Le tue scelte sono state salvate.",
  thisSite: "Questo sito",
  noticeOptIn:
    "{c} vorrebbe utilizzare i tuoi dati, con il tuo consenso, per le finalità che puoi consultare in «Personalizza». Puoi cambiare idea in qualsiasi momento.",
  noticeOptOut:
    "{c} utilizza i tuoi dati come descritto in «Le tue scelte sulla privacy», anche condividendoli eventualmente con partner. Puoi opporti in qualsiasi momento.",
  noticeOnly: "{c} utilizza i tuoi dati come descritto in «Le tue scelte sulla privacy», dove puoi anche opporti.",
  customize: "Personalizza",
  gpcApplied:
    "Il tuo browser invia il segnale Global Privacy Control, quindi la vendita e la condivisione dei tuoi dati sono state disattivate.",
  ok: "OK",
  offline: "La tua scelta è conservata su questo dispositivo e verrà inviata quando il servizio privacy risponderà.",
  downloadReceipt: "Scarica la ricevuta",
  exempt: "Non richiede consenso",
} satisfies Strings;
