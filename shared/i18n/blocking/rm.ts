// Romansh.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Chargiar il video da {v}: uschia vegnan datas cundivididas cun {c}",
  map: "Chargiar la charta da {v}: uschia vegnan datas cundivididas cun {c}",
  audio: "Chargiar l'audio da {v}: uschia vegnan datas cundivididas cun {c}",
  content: "Chargiar il cuntegn da {v} e dar il consentiment per {p}",
} satisfies BlockingStrings;
