// Slovak.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Načítať video z {v}: tým sa zdieľajú údaje so spoločnosťou {c}",
  map: "Načítať mapu z {v}: tým sa zdieľajú údaje so spoločnosťou {c}",
  audio: "Načítať zvuk z {v}: tým sa zdieľajú údaje so spoločnosťou {c}",
  content: "Načítať obsah z {v} a udeliť súhlas s účelom {p}",
} satisfies BlockingStrings;
