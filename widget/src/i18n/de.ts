export default "Ihre Datenschutzeinstellungen|{c} möchte Ihre Daten wie unten beschrieben nutzen. Sie können Ihre Auswahl jederzeit ändern.|" +
  "Datenschutzerklärung|Bedingungen|Cookie-Richtlinie|Alle akzeptieren|Alle ablehnen|Auswahl speichern|Schließen|" +
  "Details|Verwendete Daten|Verantwortliche|Auftragsverarbeiter|Empfänger|Ihre Einwilligung|Vertrag|" +
  "Berechtigtes Interesse|Rechtliche Verpflichtung|Widersprechen|Widerspruch gesendet|Neu|" +
  "Ihr Browser sendet Global Privacy Control, daher sind Einwilligungen zunächst aus.|" +
  "Der Datenschutzdienst war nicht erreichbar, daher wurde nichts gespeichert.|Erneut versuchen|Ihre Auswahl wurde gespeichert.|" +
  "Diese Website|" +
  "{c} möchte Ihre Daten mit Ihrer Einwilligung für die unter Anpassen beschriebenen Zwecke nutzen. Sie können Ihre Auswahl jederzeit ändern.|" +
  "{c} nutzt Ihre Daten wie unter Ihre Datenschutzeinstellungen beschrieben, auch durch Weitergabe an Partner. Sie können jederzeit widersprechen.|" +
  "{c} nutzt Ihre Daten wie unter Ihre Datenschutzeinstellungen beschrieben; dort können Sie auch widersprechen.|Anpassen|" +
  "Ihr Browser sendet Global Privacy Control, daher wurde dem Verkauf und der Weitergabe Ihrer Daten widersprochen.|OK|" +
  "Ihre Auswahl bleibt auf diesem Gerät und wird gesendet, sobald der Datenschutzdienst antwortet.|Beleg herunterladen";
