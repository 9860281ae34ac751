// Romanian.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Încarcă videoclipul de pe {v}: astfel se partajează date cu {c}",
  map: "Încarcă harta de pe {v}: astfel se partajează date cu {c}",
  audio: "Încarcă conținutul audio de pe {v}: astfel se partajează date cu {c}",
  content: "Încarcă conținutul de pe {v} și consimte la {p}",
} satisfies BlockingStrings;
