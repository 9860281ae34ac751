// Chinese (Traditional).
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "我們和我們的 {c} 家供應商會在裝置上儲存和/或存取資訊，並為以下目的處理個人資料。",
  objectNote: "部分供應商基於其正當利益處理個人資料，您可以在「自訂」中提出反對。",
  vendorList: "供應商清單",
  retention: "保留 {c} 天",
  features: "特殊目的和功能",
  storage: "在您裝置上的儲存",
  cookies: "使用 Cookie：{c}",
  cookie: "一個 Cookie",
  web: "網頁儲存空間",
  app: "應用程式儲存空間",
  maxAge: "最長 {c} 天",
  session: "僅限工作階段期間",
  refreshed: "每次造訪時續期",
  noCookies: "不使用 Cookie",
  otherAccess: "裝置上的其他儲存或存取方式，例如網頁儲存空間",
  unavailable: "無法載入該供應商的儲存詳細資料。",
  notAllowed: "本網站不允許",
  acProviders: "Google 的廣告技術供應商",
  acNote: "不在 IAB 的供應商清單中：Google 的額外同意字串會向其傳達您的同意，這也需要您同意在裝置上儲存及存取資訊。",
  examples: "範例",
} satisfies TcfStrings;
