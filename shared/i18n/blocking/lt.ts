// Lithuanian.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Įkelti vaizdo įrašą iš {v}: taip duomenimis dalijamasi su {c}",
  map: "Įkelti žemėlapį iš {v}: taip duomenimis dalijamasi su {c}",
  audio: "Įkelti garso įrašą iš {v}: taip duomenimis dalijamasi su {c}",
  content: "Įkelti turinį iš {v} ir sutikti su {p}",
} satisfies BlockingStrings;
