// Catalan.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Carrega el vídeo de {v}: això comparteix dades amb {c}",
  map: "Carrega el mapa de {v}: això comparteix dades amb {c}",
  audio: "Carrega l'àudio de {v}: això comparteix dades amb {c}",
  content: "Carrega el contingut de {v} i dona el consentiment per a {p}",
} satisfies BlockingStrings;
