// Welsh.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Llwytho'r fideo o {v}: mae hyn yn rhannu data gyda {c}",
  map: "Llwytho'r map o {v}: mae hyn yn rhannu data gyda {c}",
  audio: "Llwytho'r sain o {v}: mae hyn yn rhannu data gyda {c}",
  content: "Llwytho cynnwys o {v} a chydsynio i {p}",
} satisfies BlockingStrings;
