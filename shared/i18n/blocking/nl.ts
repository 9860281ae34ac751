// Dutch.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Video van {v} laden: hiermee worden gegevens gedeeld met {c}",
  map: "Kaart van {v} laden: hiermee worden gegevens gedeeld met {c}",
  audio: "Audio van {v} laden: hiermee worden gegevens gedeeld met {c}",
  content: "Inhoud van {v} laden en toestemming geven voor {p}",
} satisfies BlockingStrings;
