// Greek.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Φόρτωση του βίντεο από {v}: έτσι κοινοποιούνται δεδομένα στην {c}",
  map: "Φόρτωση του χάρτη από {v}: έτσι κοινοποιούνται δεδομένα στην {c}",
  audio: "Φόρτωση του ήχου από {v}: έτσι κοινοποιούνται δεδομένα στην {c}",
  content: "Φόρτωση περιεχομένου από {v} και συγκατάθεση για {p}",
} satisfies BlockingStrings;
