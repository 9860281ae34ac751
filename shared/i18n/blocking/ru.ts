// Russian.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Загрузить видео с {v}: при этом данные передаются {c}",
  map: "Загрузить карту с {v}: при этом данные передаются {c}",
  audio: "Загрузить аудио с {v}: при этом данные передаются {c}",
  content: "Загрузить содержимое с {v} и дать согласие на {p}",
} satisfies BlockingStrings;
