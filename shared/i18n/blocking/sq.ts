// Albanian.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Ngarko videon nga {v}: kjo ndan të dhëna me {c}",
  map: "Ngarko hartën nga {v}: kjo ndan të dhëna me {c}",
  audio: "Ngarko audion nga {v}: kjo ndan të dhëna me {c}",
  content: "Ngarko përmbajtjen nga {v} dhe jep pëlqimin për {p}",
} satisfies BlockingStrings;
