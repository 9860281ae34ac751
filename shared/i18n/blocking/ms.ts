// Malay.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Muatkan video daripada {v}: ini berkongsi data dengan {c}",
  map: "Muatkan peta daripada {v}: ini berkongsi data dengan {c}",
  audio: "Muatkan audio daripada {v}: ini berkongsi data dengan {c}",
  content: "Muatkan kandungan daripada {v} dan beri persetujuan untuk {p}",
} satisfies BlockingStrings;
