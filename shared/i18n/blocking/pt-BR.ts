// Portuguese (Brazil).
import type { BlockingStrings } from "../blocking";
export default {
  video: "Carregar o vídeo de {v}: isso compartilha dados com {c}",
  map: "Carregar o mapa de {v}: isso compartilha dados com {c}",
  audio: "Carregar o áudio de {v}: isso compartilha dados com {c}",
  content: "Carregar o conteúdo de {v} e consentir com {p}",
} satisfies BlockingStrings;
