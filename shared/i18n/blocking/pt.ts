// Portuguese (Portugal).
import type { BlockingStrings } from "../blocking";
export default {
  video: "Carregar o vídeo de {v}: isto partilha dados com {c}",
  map: "Carregar o mapa de {v}: isto partilha dados com {c}",
  audio: "Carregar o áudio de {v}: isto partilha dados com {c}",
  content: "Carregar o conteúdo de {v} e consentir em {p}",
} satisfies BlockingStrings;
