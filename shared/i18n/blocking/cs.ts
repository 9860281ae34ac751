// Czech.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Načíst video z {v}: tím se sdílejí údaje se společností {c}",
  map: "Načíst mapu z {v}: tím se sdílejí údaje se společností {c}",
  audio: "Načíst zvuk z {v}: tím se sdílejí údaje se společností {c}",
  content: "Načíst obsah z {v} a udělit souhlas s účelem {p}",
} satisfies BlockingStrings;
