// Norwegian Nynorsk.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Last inn videoen frå {v}: dette deler data med {c}",
  map: "Last inn kartet frå {v}: dette deler data med {c}",
  audio: "Last inn lyden frå {v}: dette deler data med {c}",
  content: "Last inn innhald frå {v} og samtykk til {p}",
} satisfies BlockingStrings;
