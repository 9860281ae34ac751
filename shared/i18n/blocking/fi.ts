// Finnish.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Lataa video palvelusta {v}: tämä jakaa tietoja yhtiölle {c}",
  map: "Lataa kartta palvelusta {v}: tämä jakaa tietoja yhtiölle {c}",
  audio: "Lataa ääni palvelusta {v}: tämä jakaa tietoja yhtiölle {c}",
  content: "Lataa sisältö palvelusta {v} ja anna suostumus: {p}",
} satisfies BlockingStrings;
