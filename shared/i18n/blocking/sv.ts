// Swedish.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Läs in videon från {v}: det delar data med {c}",
  map: "Läs in kartan från {v}: det delar data med {c}",
  audio: "Läs in ljudet från {v}: det delar data med {c}",
  content: "Läs in innehåll från {v} och samtyck till {p}",
} satisfies BlockingStrings;
