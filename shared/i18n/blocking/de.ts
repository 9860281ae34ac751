// German.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Video von {v} laden: Dabei werden Daten an {c} übermittelt",
  map: "Karte von {v} laden: Dabei werden Daten an {c} übermittelt",
  audio: "Audio von {v} laden: Dabei werden Daten an {c} übermittelt",
  content: "Inhalt von {v} laden und in {p} einwilligen",
} satisfies BlockingStrings;
