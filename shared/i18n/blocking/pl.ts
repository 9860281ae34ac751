// Polish.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Wczytaj film z {v}: to udostępnia dane firmie {c}",
  map: "Wczytaj mapę z {v}: to udostępnia dane firmie {c}",
  audio: "Wczytaj dźwięk z {v}: to udostępnia dane firmie {c}",
  content: "Wczytaj treść z {v} i wyraź zgodę na {p}",
} satisfies BlockingStrings;
