// Chinese (Simplified).
import type { BlockingStrings } from "../blocking";
export default {
  video: "加载来自 {v} 的视频：这会与 {c} 共享数据",
  map: "加载来自 {v} 的地图：这会与 {c} 共享数据",
  audio: "加载来自 {v} 的音频：这会与 {c} 共享数据",
  content: "加载来自 {v} 的内容，并同意用于 {p}",
} satisfies BlockingStrings;
