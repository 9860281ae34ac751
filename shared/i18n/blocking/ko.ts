// Korean.
import type { BlockingStrings } from "../blocking";
export default {
  video: "{v}에서 동영상 불러오기: {c}와(과) 데이터가 공유됩니다",
  map: "{v}에서 지도 불러오기: {c}와(과) 데이터가 공유됩니다",
  audio: "{v}에서 오디오 불러오기: {c}와(과) 데이터가 공유됩니다",
  content: "{v}에서 콘텐츠 불러오기 및 {p}에 동의",
} satisfies BlockingStrings;
