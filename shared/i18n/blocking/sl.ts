// Slovenian.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Naloži videoposnetek iz {v}: s tem se podatki delijo z {c}",
  map: "Naloži zemljevid iz {v}: s tem se podatki delijo z {c}",
  audio: "Naloži zvok iz {v}: s tem se podatki delijo z {c}",
  content: "Naloži vsebino iz {v} in privoli v {p}",
} satisfies BlockingStrings;
