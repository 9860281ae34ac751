// Indonesian.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Muat video dari {v}: ini membagikan data dengan {c}",
  map: "Muat peta dari {v}: ini membagikan data dengan {c}",
  audio: "Muat audio dari {v}: ini membagikan data dengan {c}",
  content: "Muat konten dari {v} dan setujui {p}",
} satisfies BlockingStrings;
