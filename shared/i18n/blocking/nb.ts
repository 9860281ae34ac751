// Norwegian Bokmål.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Last inn videoen fra {v}: dette deler data med {c}",
  map: "Last inn kartet fra {v}: dette deler data med {c}",
  audio: "Last inn lyden fra {v}: dette deler data med {c}",
  content: "Last inn innhold fra {v} og samtykk til {p}",
} satisfies BlockingStrings;
