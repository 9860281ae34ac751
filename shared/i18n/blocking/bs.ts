// Bosnian.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Učitaj video sa {v}: time se podaci dijele s {c}",
  map: "Učitaj mapu sa {v}: time se podaci dijele s {c}",
  audio: "Učitaj audio sa {v}: time se podaci dijele s {c}",
  content: "Učitaj sadržaj sa {v} i pristani na {p}",
} satisfies BlockingStrings;
