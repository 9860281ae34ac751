// Arabic.
import type { BlockingStrings } from "../blocking";
export default {
  video: "تحميل الفيديو من {v}: يشارك هذا بيانات مع {c}",
  map: "تحميل الخريطة من {v}: يشارك هذا بيانات مع {c}",
  audio: "تحميل الصوت من {v}: يشارك هذا بيانات مع {c}",
  content: "تحميل المحتوى من {v} والموافقة على {p}",
} satisfies BlockingStrings;
