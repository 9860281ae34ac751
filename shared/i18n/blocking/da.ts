// Danish.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Indlæs videoen fra {v}: det deler data med {c}",
  map: "Indlæs kortet fra {v}: det deler data med {c}",
  audio: "Indlæs lyden fra {v}: det deler data med {c}",
} satisfies BlockingStrings;
