// Malay.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Muatkan video daripada {v}: ini berkongsi data dengan {c}",
  map: "Muatkan peta daripada {v}: ini berkongsi data dengan {c}",
  audio: "Muatkan audio daripada {v}: ini berkongsi data dengan {c}",
} satisfies BlockingStrings;
