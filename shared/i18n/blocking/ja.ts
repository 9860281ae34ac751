// Japanese.
import type { BlockingStrings } from "../blocking";
export default {
  video: "{v} の動画を読み込む：{c} とデータが共有されます",
  map: "{v} の地図を読み込む：{c} とデータが共有されます",
  audio: "{v} の音声を読み込む：{c} とデータが共有されます",
  content: "{v} のコンテンツを読み込み、{p} に同意する",
} satisfies BlockingStrings;
