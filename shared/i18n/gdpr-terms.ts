import type { StringKey } from "./strings";

/*
 * The GDPR's own words for the widget's role and legal-ground labels, in the 24 official EU languages: the reference
 * the translation test (test/i18n) holds every EU language module to (its label must contain the term, whole words,
 * case-insensitive). Source: Regulation (EU) 2016/679, official texts (Publications Office Formex XML, consolidated
 * version of 23.5.2018 incl. the corrigendum of OJ L 127), read from the public mirror andersju/gdpr-xml; copied from
 * /work/shared/reference/gdpr-terms.md. Roles as Art. 4(7), (8), (9), (11) define them; legal grounds as Art. 6(1)(b),
 * (c), (f) word them. Where the Regulation has the term inflected (a genitive, a definite form, a verb construction)
 * the entry is its base form, a noun phrase usable as a label; the comment quotes the Regulation's own form.
 * Not used at run time: the widget never ships this table.
 */
export type GdprTermKey = Extract<
  StringKey,
  "controller" | "processor" | "recipient" | "consent" | "contract" | "legitimateInterests" | "legalObligation"
>;
export type GdprTerms = Record<GdprTermKey, string>;

export const gdprTerms = {
  bg: {
    controller: "администратор",
    processor: "обработващ лични данни", // the participle phrase, not "обработващ" alone
    recipient: "получател",
    consent: "съгласие", // Art. 4(11) defines „съгласие на субекта на данните“
    contract: "изпълнение на договор", // Art. 6(1)(b) "изпълнението на договор" (definite)
    legitimateInterests: "легитимни интереси", // Art. 6(1)(f) "легитимните интереси" (definite)
    legalObligation: "спазване на законово задължение", // Art. 6(1)(c) "спазването на …" (definite)
  },
  cs: {
    controller: "správce", // Art. 4(7) "správcem" (instrumental)
    processor: "zpracovatel", // Art. 4(8) "zpracovatelem"
    recipient: "příjemce", // Art. 4(9) "příjemcem"
    consent: "souhlas", // Art. 4(11) "souhlasem subjektu údajů"
    contract: "splnění smlouvy",
    legitimateInterests: "oprávněné zájmy", // Art. 6(1)(f) "oprávněných zájmů" (genitive)
    legalObligation: "splnění právní povinnosti",
  },
  da: {
    controller: "dataansvarlig",
    processor: "databehandler",
    recipient: "modtager",
    consent: "samtykke", // Art. 4(11) "samtykke fra den registrerede"
    contract: "opfyldelse af en kontrakt", // "kontrakt", not "aftale"
    legitimateInterests: "legitim interesse", // singular in Art. 6(1)(f)
    legalObligation: "retlig forpligtelse", // Art. 6(1)(c) "for at overholde en retlig forpligtelse" (verb phrase)
  },
  de: {
    controller: "Verantwortlicher",
    processor: "Auftragsverarbeiter",
    recipient: "Empfänger",
    consent: "Einwilligung", // Art. 4(11) "Einwilligung der betroffenen Person"; not "Zustimmung"
    contract: "Erfüllung eines Vertrags",
    legitimateInterests: "berechtigte Interessen", // Art. 6(1)(f) "der berechtigten Interessen"
    legalObligation: "Erfüllung einer rechtlichen Verpflichtung",
  },
  el: {
    controller: "υπεύθυνος επεξεργασίας",
    processor: "εκτελών την επεξεργασία",
    recipient: "αποδέκτης",
    consent: "συγκατάθεση", // Art. 4(11) "συγκατάθεση του υποκειμένου των δεδομένων"
    contract: "εκτέλεση σύμβασης",
    legitimateInterests: "έννομα συμφέροντα", // Art. 6(1)(f) "έννομων συμφερόντων" (genitive)
    legalObligation: "συμμόρφωση με έννομη υποχρέωση",
  },
  en: {
    controller: "controller",
    processor: "processor",
    recipient: "recipient",
    consent: "consent",
    contract: "performance of a contract",
    legitimateInterests: "legitimate interests",
    legalObligation: "compliance with a legal obligation",
  },
  es: {
    controller: "responsable del tratamiento", // the Regulation shortens it to «responsable»
    processor: "encargado del tratamiento", // shortened «encargado»
    recipient: "destinatario",
    consent: "consentimiento", // Art. 4(11) «consentimiento del interesado»
    contract: "ejecución de un contrato",
    legitimateInterests: "intereses legítimos",
    legalObligation: "cumplimiento de una obligación legal",
  },
  et: {
    controller: "vastutav töötleja",
    processor: "volitatud töötleja",
    recipient: "vastuvõtja",
    consent: "nõusolek", // Art. 4(11) "andmesubjekti nõusolek"
    contract: "lepingu täitmine", // Art. 6(1)(b) "lepingu täitmiseks" (translative)
    legitimateInterests: "õigustatud huvi", // singular in Art. 6(1)(f)
    legalObligation: "seadusjärgse kohustuse täitmine", // Art. 6(1)(c) "seadusjärgse kohustuse täitmiseks" (as corrected by OJ L 127)
  },
  fi: {
    controller: "rekisterinpitäjä", // Art. 4(7) "rekisterinpitäjällä" (adessive)
    processor: "henkilötietojen käsittelijä", // Art. 4(8) "henkilötietojen käsittelijällä"
    recipient: "vastaanottaja", // Art. 4(9) "vastaanottajalla"
    consent: "suostumus", // Art. 4(11) "rekisteröidyn suostumuksella"
    contract: "sopimuksen täytäntöön paneminen", // Art. 6(1)(b) "sopimuksen täytäntöön panemiseksi" (translative)
    legitimateInterests: "oikeutetut edut", // Art. 6(1)(f) "oikeutettujen etujen" (genitive)
    legalObligation: "lakisääteisen velvoitteen noudattaminen", // Art. 6(1)(c) "… noudattamiseksi" (translative)
  },
  fr: {
    controller: "responsable du traitement",
    processor: "sous-traitant", // not "processeur"
    recipient: "destinataire",
    consent: "consentement", // Art. 4(11) "consentement de la personne concernée"
    contract: "exécution d'un contrat",
    legitimateInterests: "intérêts légitimes",
    legalObligation: "respect d'une obligation légale",
  },
  ga: {
    controller: "rialaitheoir",
    processor: "próiseálaí",
    recipient: "faighteoir",
    consent: "toiliú", // Art. 4(11) "toiliú an ábhair sonraí"
    contract: "conradh", // Art. 6(1)(b) "chun conradh … a chomhlíonadh" (verbal-noun construction)
    legitimateInterests: "leasanna dlisteanacha",
    legalObligation: "oibleagáid dhlíthiúil", // Art. 6(1)(c) "chun oibleagáid dhlíthiúil … a chomhlíonadh"
  },
  hr: {
    controller: "voditelj obrade",
    processor: "izvršitelj obrade",
    recipient: "primatelj",
    consent: "privola", // Art. 4(11) "privola ispitanika"; not "pristanak"
    contract: "izvršavanje ugovora",
    legitimateInterests: "legitimni interesi", // Art. 6(1)(f) "legitimnih interesa" (genitive)
    legalObligation: "poštovanje pravnih obveza", // Art. 6(1)(c) "poštovanja pravnih obveza" (genitive; plural obligations)
  },
  hu: {
    controller: "adatkezelő",
    processor: "adatfeldolgozó",
    recipient: "címzett",
    consent: "hozzájárulás", // Art. 4(11) "az érintett hozzájárulása"
    contract: "szerződés teljesítése", // Art. 6(1)(b) "szerződés teljesítéséhez" (allative)
    legitimateInterests: "jogos érdekek", // Art. 6(1)(f) "jogos érdekeinek" (possessive dative plural)
    legalObligation: "jogi kötelezettség teljesítése", // Art. 6(1)(c) "jogi kötelezettség teljesítéséhez"
  },
  it: {
    controller: "titolare del trattamento", // false friend: "responsabile del trattamento" is the processor
    processor: "responsabile del trattamento",
    recipient: "destinatario",
    consent: "consenso", // Art. 4(11) «consenso dell'interessato»
    contract: "esecuzione di un contratto",
    legitimateInterests: "legittimo interesse", // singular in Art. 6(1)(f)
    legalObligation: "obbligo legale", // Art. 6(1)(c) "per adempiere un obbligo legale" (verb phrase)
  },
  lt: {
    controller: "duomenų valdytojas",
    processor: "duomenų tvarkytojas",
    recipient: "duomenų gavėjas",
    consent: "sutikimas", // Art. 4(11) „duomenų subjekto sutikimas“
    // Art. 6(1)(b) has only the verb ("įvykdyti sutartį"); the Regulation's noun is Art. 7(4) "sutarties vykdymui" (dative)
    contract: "sutarties vykdymas",
    legitimateInterests: "teisėti interesai", // Art. 6(1)(f) "teisėtų … interesų" (genitive)
    legalObligation: "teisinė prievolė",
  },
  lv: {
    controller: "pārzinis",
    processor: "apstrādātājs",
    recipient: "saņēmējs",
    consent: "piekrišana", // Art. 4(11) "datu subjekta piekrišana"
    contract: "līguma izpilde", // Art. 6(1)(b) "līguma … izpildei" (dative)
    legitimateInterests: "leģitīmās intereses", // Art. 6(1)(f) "leģitīmo interešu" (genitive)
    legalObligation: "juridisks pienākums", // Art. 6(1)(c) "juridisku pienākumu" (accusative)
  },
  mt: {
    controller: "kontrollur",
    processor: "proċessur",
    recipient: "riċevitur",
    consent: "kunsens", // Art. 4(11) "kunsens tas-suġġett tad-data"
    contract: "twettiq ta' kuntratt",
    legitimateInterests: "interessi leġittimi",
    legalObligation: "konformità ma' obbligu legali",
  },
  nl: {
    controller: "verwerkingsverantwoordelijke",
    processor: "verwerker",
    recipient: "ontvanger",
    consent: "toestemming", // Art. 4(11) "toestemming van de betrokkene"
    contract: "uitvoering van een overeenkomst", // "overeenkomst", not "contract"
    legitimateInterests: "gerechtvaardigde belangen",
    legalObligation: "wettelijke verplichting",
  },
  pl: {
    controller: "administrator",
    processor: "podmiot przetwarzający", // not "procesor"
    recipient: "odbiorca",
    consent: "zgoda", // Art. 4(11) "zgoda osoby, której dane dotyczą"
    contract: "wykonanie umowy", // Art. 6(1)(b) "wykonania umowy" (genitive)
    legitimateInterests: "prawnie uzasadnione interesy", // Art. 6(1)(f) "prawnie uzasadnionych interesów" (genitive)
    legalObligation: "wypełnienie obowiązku prawnego", // Art. 6(1)(c) "wypełnienia obowiązku prawnego" (genitive)
  },
  pt: {
    controller: "responsável pelo tratamento",
    processor: "subcontratante", // not "processador"/"operador"
    recipient: "destinatário",
    consent: "consentimento", // Art. 4(11) "consentimento do titular dos dados"
    contract: "execução de um contrato",
    legitimateInterests: "interesses legítimos",
    legalObligation: "cumprimento de uma obrigação jurídica", // "jurídica", not "legal"
  },
  ro: {
    controller: "operator", // false friend: the controller
    processor: "persoană împuternicită de operator",
    recipient: "destinatar",
    consent: "consimțământ", // Art. 4(11) "consimțământ" (al persoanei vizate)
    contract: "executarea unui contract",
    legitimateInterests: "interese legitime", // Art. 6(1)(f) "intereselor legitime" (genitive-dative, definite)
    legalObligation: "îndeplinirea unei obligații legale", // Art. 6(1)(c) "îndeplinirii unei obligații legale" (genitive-dative)
  },
  sk: {
    controller: "prevádzkovateľ",
    processor: "sprostredkovateľ",
    recipient: "príjemca",
    consent: "súhlas", // Art. 4(11) "súhlas dotknutej osoby"
    contract: "plnenie zmluvy",
    legitimateInterests: "oprávnené záujmy", // Art. 6(1)(f) "oprávnených záujmov" (genitive)
    legalObligation: "splnenie zákonnej povinnosti",
  },
  sl: {
    controller: "upravljavec",
    processor: "obdelovalec",
    recipient: "uporabnik", // false friend: everyday "user"
    consent: "privolitev", // not "soglasje"
    contract: "izvajanje pogodbe",
    legitimateInterests: "zakoniti interesi", // Art. 6(1)(f) "zakonitih interesov" (genitive)
    legalObligation: "izpolnitev zakonske obveznosti",
  },
  sv: {
    controller: "personuppgiftsansvarig",
    processor: "personuppgiftsbiträde",
    recipient: "mottagare",
    consent: "samtycke", // Art. 4(11) "samtycke av den registrerade"
    contract: "avtal", // Art. 6(1)(b) "för att fullgöra ett avtal" (verb phrase)
    legitimateInterests: "berättigade intressen",
    legalObligation: "rättslig förpliktelse", // Art. 6(1)(c) "för att fullgöra en rättslig förpliktelse" (verb phrase)
  },
} satisfies Record<string, GdprTerms>;

export type EuLanguage = keyof typeof gdprTerms;
