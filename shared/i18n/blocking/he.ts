// Hebrew.
import type { BlockingStrings } from "../blocking";
export default {
  video: "טעינת הסרטון מ-{v}: פעולה זו משתפת נתונים עם {c}",
  map: "טעינת המפה מ-{v}: פעולה זו משתפת נתונים עם {c}",
  audio: "טעינת השמע מ-{v}: פעולה זו משתפת נתונים עם {c}",
  content: "טעינת תוכן מ-{v} ומתן הסכמה ל-{p}",
} satisfies BlockingStrings;
