// Serbian (Cyrillic).
import type { BlockingStrings } from "../blocking";
export default {
  video: "Учитај видео са {v}: тиме се подаци деле са {c}",
  map: "Учитај мапу са {v}: тиме се подаци деле са {c}",
  audio: "Учитај звук са {v}: тиме се подаци деле са {c}",
  content: "Учитај садржај са {v} и дај сагласност за {p}",
} satisfies BlockingStrings;
