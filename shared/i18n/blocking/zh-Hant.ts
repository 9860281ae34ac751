// Chinese (Traditional).
import type { BlockingStrings } from "../blocking";
export default {
  video: "載入來自 {v} 的影片：這會與 {c} 分享資料",
  map: "載入來自 {v} 的地圖：這會與 {c} 分享資料",
  audio: "載入來自 {v} 的音訊：這會與 {c} 分享資料",
  content: "載入來自 {v} 的內容，並同意用於 {p}",
} satisfies BlockingStrings;
