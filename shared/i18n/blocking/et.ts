// Estonian.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Laadi video teenusest {v}: see jagab andmeid ettevõttega {c}",
  map: "Laadi kaart teenusest {v}: see jagab andmeid ettevõttega {c}",
  audio: "Laadi heli teenusest {v}: see jagab andmeid ettevõttega {c}",
  content: "Laadi sisu teenusest {v} ja anna nõusolek: {p}",
} satisfies BlockingStrings;
