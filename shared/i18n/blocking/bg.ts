// Bulgarian.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Зареждане на видеото от {v}: така се споделят данни с {c}",
  map: "Зареждане на картата от {v}: така се споделят данни с {c}",
  audio: "Зареждане на аудиото от {v}: така се споделят данни с {c}",
  content: "Зареждане на съдържанието от {v} и съгласие за {p}",
} satisfies BlockingStrings;
