// French.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Nous et nos {c} fournisseurs stockons et/ou accédons à des informations sur un appareil et traitons des données personnelles pour les finalités ci-dessous.",
  objectNote: "Certains fournisseurs traitent des données personnelles sur la base de leur intérêt légitime, auquel vous pouvez vous opposer dans Personnaliser.",
  vendorList: "Liste des fournisseurs",
  retention: "conservées {c} jours",
  features: "Finalités spéciales et fonctionnalités",
  storage: "Stockage sur votre appareil",
  cookies: "Utilise des cookies : {c}",
  cookie: "un cookie",
  web: "stockage web",
  app: "stockage d'application",
  maxAge: "jusqu'à {c} jours",
  session: "pour la session uniquement",
  refreshed: "renouvelé à chaque visite",
  noCookies: "Aucun cookie",
  otherAccess: "Autre stockage ou accès sur l'appareil, comme le stockage web",
  unavailable: "Les informations de stockage du fournisseur n'ont pas pu être chargées.",
  notAllowed: "Non autorisé par ce site",
  acProviders: "Fournisseurs de technologie publicitaire de Google",
  acNote: "Absents de la liste des fournisseurs de l'IAB : la chaîne Additional Consent de Google leur transmet votre consentement, qui suppose aussi votre consentement au stockage d'informations sur un appareil et à l'accès à celles-ci.",
  examples: "Exemples",
} satisfies TcfStrings;
