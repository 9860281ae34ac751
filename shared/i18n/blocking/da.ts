// Danish.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Indlæs videoen fra {v}: det deler data med {c}",
  map: "Indlæs kortet fra {v}: det deler data med {c}",
  audio: "Indlæs lyden fra {v}: det deler data med {c}",
  content: "Indlæs indhold fra {v} og giv samtykke til {p}",
} satisfies BlockingStrings;
