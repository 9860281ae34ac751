// Romansh.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Chargiar il video da {v}: uschia vegnan datas cundivididas cun {c}",
  map: "Chargiar la charta da {v}: uschia vegnan datas cundivididas cun {c}",
  audio: "Chargiar l'audio da {v}: uschia vegnan datas cundivididas cun {c}",
} satisfies BlockingStrings;
