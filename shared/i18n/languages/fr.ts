// French: "vous"; no-break spaces (\u00a0) inside « » as French typography requires.
import type { Strings } from "../strings";
export default {
  title: "Vos choix de confidentialité",
  intro: "{c} souhaite utiliser vos données comme décrit ci-dessous. Vous pouvez modifier vos choix à tout moment.",
  privacyPolicy: "Politique de confidentialité",
  terms: "Conditions d’utilisation",
  cookiePolicy: "Politique de cookies",
  acceptAll: "Tout accepter",
  rejectAll: "Tout refuser",
  save: "Enregistrer mes choix",
  close: "Fermer",
  details: "Détails",
  dataUsed: "Données utilisées",
  controller: "Responsable du traitement",
  processor: "Sous-traitant",
  recipient: "Destinataire",
  consent: "Consentement",
  contract: "Exécution d’un contrat",
  legitimateInterests: "Intérêts légitimes",
  legalObligation: "Respect d’une obligation légale",
  object: "S’opposer",
  objectionSent: "Opposition envoyée",
  new: "Nouveau",
  gpc: "Votre navigateur envoie le signal Global Privacy Control, les consentements sont donc désactivés au départ.",
  serviceDown: "Le service de confidentialité est injoignable, rien n’a donc été enregistré.",
  retry: "Réessayer",
  saved: "Vos choix ont été enregistrés.",
  thisSite: "Ce site",
  noticeOptIn:
    "{c} souhaite, avec votre consentement, utiliser vos données pour les finalités présentées sous «\u00a0Personnaliser\u00a0». Vous pouvez modifier vos choix à tout moment.",
  noticeOptOut:
    "{c} utilise vos données comme décrit sous «\u00a0Vos choix de confidentialité\u00a0», ce qui peut inclure leur partage avec des partenaires. Vous pouvez vous y opposer à tout moment.",
  noticeOnly:
    "{c} utilise vos données comme décrit sous «\u00a0Vos choix de confidentialité\u00a0», où vous pouvez aussi exercer votre droit d’opposition.",
  customize: "Personnaliser",
  gpcApplied:
    "Votre navigateur envoie le signal Global Privacy Control, la vente et le partage de vos données ont donc été refusés en votre nom.",
  ok: "OK",
  offline: "Votre choix est conservé sur cet appareil et sera transmis dès que le service de confidentialité répondra.",
  downloadReceipt: "Télécharger le justificatif",
  exempt: "Ne nécessite pas de consentement",
} satisfies Strings;
