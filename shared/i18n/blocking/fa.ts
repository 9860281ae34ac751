// Persian.
import type { BlockingStrings } from "../blocking";
export default {
  video: "بارگیری ویدیو از {v}: با این کار داده‌ها با {c} به اشتراک گذاشته می‌شود",
  map: "بارگیری نقشه از {v}: با این کار داده‌ها با {c} به اشتراک گذاشته می‌شود",
  audio: "بارگیری صدا از {v}: با این کار داده‌ها با {c} به اشتراک گذاشته می‌شود",
  content: "بارگیری محتوا از {v} و رضایت به {p}",
} satisfies BlockingStrings;
