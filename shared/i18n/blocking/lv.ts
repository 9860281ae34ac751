// Latvian.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Ielādēt video no {v}: tādējādi dati tiek kopīgoti ar {c}",
  map: "Ielādēt karti no {v}: tādējādi dati tiek kopīgoti ar {c}",
  audio: "Ielādēt audio no {v}: tādējādi dati tiek kopīgoti ar {c}",
  content: "Ielādēt saturu no {v} un piekrist: {p}",
} satisfies BlockingStrings;
