import type { Translation } from "./types";

/*
 * The widget's own words: one "|"-separated line per language, read by index. The indexes are constants, so
 * the bundle carries small numbers instead of key names (the size budget is tight). `{c}` in INTRO is the
 * controller's name. Entries that follow each other in a fixed order (policy links, party roles, legal
 * grounds) are read as FIRST + offset.
 */
export const TITLE = 0;
export const INTRO = 1;
/** Then TERMS and COOKIE: the keys of a Policies object, in that order. */
export const POLICY = 2;
export const ACCEPT = 5;
export const REJECT = 6;
export const SAVE = 7;
export const CLOSE = 8;
export const DETAILS = 9;
export const DATA = 10;
/** Then PROCESSORS and RECIPIENTS. */
export const CONTROLLERS = 11;
/** Then the other legal grounds, in the order of `legalGrounds`. */
export const CONSENT = 14;
export const OBJECT = 18;
export const OBJECTED = 19;
export const PENDING = 20;
export const GPC = 21;
export const DOWN = 22;
export const RETRY = 23;
export const SAVED = 24;

export const legalGrounds = ["consent", "contract", "legitimate_interests", "legal_requirement"] as const;

const lines: Record<string, string> = {
  en:
    "Your privacy choices|{c} would like to use your data as described below. You can change your mind at any time.|" +
    "Privacy policy|Terms|Cookie policy|Accept all|Reject all|Save choices|Close|Details|Data used|Controllers|Processors|" +
    "Recipients|Your consent|Contract|Legitimate interest|Legal obligation|Object|Objection sent|New|" +
    "Your browser sends Global Privacy Control, so consent starts switched off.|" +
    "The privacy service could not be reached, so nothing was saved.|Try again|Your choices were saved.",
  sv:
    "Dina integritetsval|{c} vill använda dina uppgifter enligt nedan. Du kan ändra dina val när som helst.|" +
    "Integritetspolicy|Villkor|Cookiepolicy|Godkänn alla|Neka alla|Spara val|Stäng|Detaljer|Uppgifter som används|" +
    "Personuppgiftsansvariga|Personuppgiftsbiträden|Mottagare|Ditt samtycke|Avtal|Berättigat intresse|" +
    "Rättslig förpliktelse|Invänd|Invändning skickad|Ny|" +
    "Din webbläsare skickar Global Privacy Control, så samtycken är avstängda från början.|" +
    "Integritetstjänsten gick inte att nå, så inget sparades.|Försök igen|Dina val har sparats.",
  de:
    "Ihre Datenschutzeinstellungen|{c} möchte Ihre Daten wie unten beschrieben nutzen. Sie können Ihre Auswahl jederzeit ändern.|" +
    "Datenschutzerklärung|Bedingungen|Cookie-Richtlinie|Alle akzeptieren|Alle ablehnen|Auswahl speichern|Schließen|" +
    "Details|Verwendete Daten|Verantwortliche|Auftragsverarbeiter|Empfänger|Ihre Einwilligung|Vertrag|" +
    "Berechtigtes Interesse|Rechtliche Verpflichtung|Widersprechen|Widerspruch gesendet|Neu|" +
    "Ihr Browser sendet Global Privacy Control, daher sind Einwilligungen zunächst aus.|" +
    "Der Datenschutzdienst war nicht erreichbar, daher wurde nichts gespeichert.|" +
    "Erneut versuchen|Ihre Auswahl wurde gespeichert.",
  fr:
    "Vos choix de confidentialité|{c} souhaite utiliser vos données comme décrit ci-dessous. Vous pouvez modifier vos choix à tout moment.|" +
    "Politique de confidentialité|Conditions|Politique de cookies|Tout accepter|Tout refuser|Enregistrer mes choix|" +
    "Fermer|Détails|Données utilisées|Responsables|Sous-traitants|Destinataires|Votre consentement|" +
    "Contrat|Intérêt légitime|Obligation légale|M’opposer|Opposition envoyée|Nouveau|" +
    "Votre navigateur envoie Global Privacy Control : les consentements sont désactivés au départ.|" +
    "Le service de confidentialité est injoignable : rien n’a été enregistré.|" +
    "Réessayer|Vos choix ont été enregistrés.",
  es:
    "Tus opciones de privacidad|{c} quiere usar tus datos como se describe abajo. Puedes cambiar tus opciones cuando quieras.|" +
    "Política de privacidad|Condiciones|Política de cookies|Aceptar todo|Rechazar todo|Guardar opciones|Cerrar|" +
    "Detalles|Datos utilizados|Responsables|Encargados|Destinatarios|Tu consentimiento|Contrato|" +
    "Interés legítimo|Obligación legal|Oponerme|Oposición enviada|Nuevo|" +
    "Tu navegador envía Global Privacy Control, así que los consentimientos empiezan desactivados.|" +
    "El servicio de privacidad no está disponible, así que no se guardó nada.|Reintentar|" +
    "Tus opciones se han guardado.",
};

/** The strings of a language the widget speaks (see `uiLanguage`). */
export const strings = (language: string): string[] => lines[language].split("|");

/** The language to show: the `lang` asked for when the widget speaks it, else English. */
export const uiLanguage = (wanted: string) => {
  const primary = wanted.toLowerCase().split("-")[0];
  return lines[primary] ? primary : "en";
};

/** A text in the wanted language, else the project's default, else English, else whatever there is. */
export function pick(texts: Translation[] | undefined, lang: string, fallback = "en"): string {
  if (!texts?.length) return "";
  const primary = (tag: string) => tag.toLowerCase().split("-")[0];
  for (const want of [lang, fallback, "en"]) {
    const hit = texts.find((t) => primary(t.language) === primary(want));
    if (hit) return hit.text;
  }
  return texts[0].text;
}
