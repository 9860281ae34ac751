// Ukrainian.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Завантажити відео з {v}: це передає дані {c}",
  map: "Завантажити карту з {v}: це передає дані {c}",
  audio: "Завантажити аудіо з {v}: це передає дані {c}",
  content: "Завантажити вміст із {v} і надати згоду на {p}",
} satisfies BlockingStrings;
