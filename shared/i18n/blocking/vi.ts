// Vietnamese.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Tải video từ {v}: thao tác này chia sẻ dữ liệu với {c}",
  map: "Tải bản đồ từ {v}: thao tác này chia sẻ dữ liệu với {c}",
  audio: "Tải âm thanh từ {v}: thao tác này chia sẻ dữ liệu với {c}",
  content: "Tải nội dung từ {v} và đồng ý với {p}",
} satisfies BlockingStrings;
