// Italian.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Carica il video da {v}: così si condividono dati con {c}",
  map: "Carica la mappa da {v}: così si condividono dati con {c}",
  audio: "Carica l'audio da {v}: così si condividono dati con {c}",
  content: "Carica il contenuto da {v} e acconsenti a {p}",
} satisfies BlockingStrings;
