// French.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Nous et nos {c} fournisseurs stockons et/ou accédons à des informations sur un appareil et traitons des données personnelles pour les finalités ci-dessous.",
  objectNote: "Certains fournisseurs traitent des données personnelles sur la base de leur intérêt légitime, auquel vous pouvez vous opposer dans Personnaliser.",
  vendorList: "Liste des fournisseurs",
  retention: "conservées {c} jours",
  features: "Finalités spéciales et fonctionnalités",
} satisfies TcfStrings;
