// Spanish.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Cargar el vídeo de {v}: esto comparte datos con {c}",
  map: "Cargar el mapa de {v}: esto comparte datos con {c}",
  audio: "Cargar el audio de {v}: esto comparte datos con {c}",
  content: "Cargar el contenido de {v} y dar el consentimiento para {p}",
} satisfies BlockingStrings;
