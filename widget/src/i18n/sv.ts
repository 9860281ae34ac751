export default "Dina integritetsval|{c} vill använda dina uppgifter enligt nedan. Du kan ändra dina val när som helst.|" +
  "Integritetspolicy|Villkor|Cookiepolicy|Godkänn alla|Neka alla|Spara val|Stäng|Detaljer|Uppgifter som används|" +
  "Personuppgiftsansvariga|Personuppgiftsbiträden|Mottagare|Ditt samtycke|Avtal|Berättigat intresse|" +
  "Rättslig förpliktelse|Invänd|Invändning skickad|Ny|" +
  "Din webbläsare skickar Global Privacy Control, så samtycken är avstängda från början.|" +
  "Integritetstjänsten gick inte att nå, så inget sparades.|Försök igen|Dina val har sparats.|Den här webbplatsen|" +
  "{c} vill, med ditt samtycke, använda dina uppgifter för de ändamål du ser under Anpassa. Du kan ändra dina val när som helst.|" +
  "{c} använder dina uppgifter enligt Dina integritetsval, vilket kan innebära att de delas med partner. Du kan tacka nej när som helst.|" +
  "{c} använder dina uppgifter enligt Dina integritetsval, där du också kan invända.|Anpassa|" +
  "Din webbläsare skickar Global Privacy Control, så du har tackat nej till försäljning och delning av dina uppgifter.|OK|" +
  "Ditt val sparas på den här enheten och skickas när integritetstjänsten svarar.|Ladda ner kvitto";
