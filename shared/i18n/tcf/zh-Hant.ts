// Chinese (Traditional).
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "我們和我們的 {c} 家供應商會在裝置上儲存和/或存取資訊，並為以下目的處理個人資料。",
  objectNote: "部分供應商基於其正當利益處理個人資料，您可以在「自訂」中提出反對。",
  vendorList: "供應商清單",
  retention: "保留 {c} 天",
  features: "特殊目的和功能",
} satisfies TcfStrings;
