export default "Vos choix de confidentialité|{c} souhaite utiliser vos données comme décrit ci-dessous. Vous pouvez modifier vos choix à tout moment.|" +
  "Politique de confidentialité|Conditions|Politique de cookies|Tout accepter|Tout refuser|Enregistrer mes choix|" +
  "Fermer|Détails|Données utilisées|Responsables|Sous-traitants|Destinataires|Votre consentement|" +
  "Contrat|Intérêt légitime|Obligation légale|M’opposer|Opposition envoyée|Nouveau|" +
  "Votre navigateur envoie Global Privacy Control : les consentements sont désactivés au départ.|" +
  "Le service de confidentialité est injoignable : rien n’a été enregistré.|Réessayer|Vos choix ont été enregistrés.|Ce site|" +
  "{c} souhaite utiliser vos données, avec votre consentement, pour les finalités présentées sous Personnaliser. Vous pouvez modifier vos choix à tout moment.|" +
  "{c} utilise vos données comme décrit sous Vos choix de confidentialité, y compris en les partageant avec des partenaires. Vous pouvez vous y opposer à tout moment.|" +
  "{c} utilise vos données comme décrit sous Vos choix de confidentialité, où vous pouvez aussi vous y opposer.|Personnaliser|" +
  "Votre navigateur envoie Global Privacy Control : vous êtes opposé à la vente et au partage de vos données.|OK|" +
  "Votre choix est conservé sur cet appareil et sera envoyé dès que le service de confidentialité répondra.|Télécharger le reçu";
