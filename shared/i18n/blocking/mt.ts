// Maltese.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Tella' l-vidjo minn {v}: b'hekk tinqasam data ma' {c}",
  map: "Tella' il-mappa minn {v}: b'hekk tinqasam data ma' {c}",
  audio: "Tella' l-awdjo minn {v}: b'hekk tinqasam data ma' {c}",
  content: "Tella' l-kontenut minn {v} u agħti l-kunsens għal {p}",
} satisfies BlockingStrings;
