// Croatian.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Učitaj videozapis s {v}: time se podaci dijele s {c}",
  map: "Učitaj kartu s {v}: time se podaci dijele s {c}",
  audio: "Učitaj zvuk s {v}: time se podaci dijele s {c}",
  content: "Učitaj sadržaj s {v} i daj privolu za {p}",
} satisfies BlockingStrings;
