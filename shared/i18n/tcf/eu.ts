// Basque.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Guk eta gure {c} hornitzaileek gailu batean informazioa gorde eta/edo atzitzen dugu eta datu pertsonalak tratatzen ditugu beheko helburuetarako.",
  objectNote: "Hornitzaile batzuek beren interes legitimoan oinarrituta tratatzen dituzte datu pertsonalak, eta horren aurka egin dezakezu Pertsonalizatu atalean.",
  vendorList: "Hornitzaileen zerrenda",
  retention: "{c} egunez gordeta",
  features: "Helburu bereziak eta funtzioak",
} satisfies TcfStrings;
