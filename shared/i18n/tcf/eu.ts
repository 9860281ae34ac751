// Basque.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Guk eta gure {c} hornitzaileek gailu batean informazioa gorde eta/edo atzitzen dugu eta datu pertsonalak tratatzen ditugu beheko helburuetarako.",
  objectNote: "Hornitzaile batzuek beren interes legitimoan oinarrituta tratatzen dituzte datu pertsonalak, eta horren aurka egin dezakezu Pertsonalizatu atalean.",
  vendorList: "Hornitzaileen zerrenda",
  retention: "{c} egunez gordeta",
  features: "Helburu bereziak eta funtzioak",
  storage: "Zure gailuko biltegiratzea",
  cookies: "Cookieak erabiltzen ditu: {c}",
  cookie: "cookie bat",
  web: "web biltegiratzea",
  app: "aplikazioaren biltegiratzea",
  maxAge: "{c} egun arte",
  session: "saioan soilik",
  refreshed: "bisita bakoitzean berritzen da",
  noCookies: "Cookierik ez",
  otherAccess: "Gailuko beste biltegiratze edo sarbide bat, web biltegiratzea adibidez",
  unavailable: "Ezin izan dira kargatu hornitzailearen biltegiratze-datuak.",
  notAllowed: "Gune honek ez du baimentzen",
  acProviders: "Google-ren publizitate-teknologiako hornitzaileak",
  acNote: "Ez daude IABren hornitzaileen zerrendan: Google-ren baimen gehigarriaren kateak zure baimena helarazten die, eta horrek gailu batean informazioa gordetzeko eta hartara sartzeko baimena ere behar du.",
  examples: "Adibideak",
} satisfies TcfStrings;
