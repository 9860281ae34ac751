// Hungarian.
import type { BlockingStrings } from "../blocking";
export default {
  video: "A videó betöltése innen: {v} – ezzel adatok jutnak el ide: {c}",
  map: "A térkép betöltése innen: {v} – ezzel adatok jutnak el ide: {c}",
  audio: "A hanganyag betöltése innen: {v} – ezzel adatok jutnak el ide: {c}",
  content: "Tartalom betöltése innen: {v} – és hozzájárulás ehhez: {p}",
} satisfies BlockingStrings;
