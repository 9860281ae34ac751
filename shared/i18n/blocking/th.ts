// Thai.
import type { BlockingStrings } from "../blocking";
export default {
  video: "โหลดวิดีโอจาก {v}: การดำเนินการนี้จะแชร์ข้อมูลกับ {c}",
  map: "โหลดแผนที่จาก {v}: การดำเนินการนี้จะแชร์ข้อมูลกับ {c}",
  audio: "โหลดเสียงจาก {v}: การดำเนินการนี้จะแชร์ข้อมูลกับ {c}",
  content: "โหลดเนื้อหาจาก {v} และให้ความยินยอมสำหรับ {p}",
} satisfies BlockingStrings;
