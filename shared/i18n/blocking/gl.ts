// Galician.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Cargar o vídeo de {v}: isto comparte datos con {c}",
  map: "Cargar o mapa de {v}: isto comparte datos con {c}",
  audio: "Cargar o audio de {v}: isto comparte datos con {c}",
  content: "Cargar o contido de {v} e dar o consentimento para {p}",
} satisfies BlockingStrings;
