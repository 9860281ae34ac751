// Icelandic.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Hlaða myndbandinu frá {v}: þetta deilir gögnum með {c}",
  map: "Hlaða kortinu frá {v}: þetta deilir gögnum með {c}",
  audio: "Hlaða hljóðinu frá {v}: þetta deilir gögnum með {c}",
  content: "Hlaða efni frá {v} og samþykkja {p}",
} satisfies BlockingStrings;
