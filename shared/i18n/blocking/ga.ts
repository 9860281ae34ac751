// Irish.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Lódáil an físeán ó {v}: roinntear sonraí le {c} dá bharr seo",
  map: "Lódáil an léarscáil ó {v}: roinntear sonraí le {c} dá bharr seo",
  audio: "Lódáil an fhuaim ó {v}: roinntear sonraí le {c} dá bharr seo",
  content: "Lódáil ábhar ó {v} agus toiligh le {p}",
} satisfies BlockingStrings;
