// Chinese (Simplified).
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "我们和我们的 {c} 家供应商在设备上存储和/或访问信息，并为以下目的处理个人数据。",
  objectNote: "部分供应商基于其正当利益处理个人数据，您可以在“自定义”中提出反对。",
  vendorList: "供应商列表",
  retention: "保留 {c} 天",
  features: "特殊目的和功能",
  storage: "在您设备上的存储",
  cookies: "使用 Cookie：{c}",
  cookie: "一个 Cookie",
  web: "网页存储",
  app: "应用存储",
  maxAge: "最长 {c} 天",
  session: "仅限会话期间",
  refreshed: "每次访问时续期",
  noCookies: "不使用 Cookie",
  otherAccess: "设备上的其他存储或访问方式，例如网页存储",
  unavailable: "无法加载该供应商的存储详情。",
  notAllowed: "本网站不允许",
  acProviders: "Google 的广告技术提供商",
  acNote: "不在 IAB 的供应商列表中：Google 的附加同意字符串会向其传达您的同意，这也需要您同意在设备上存储和访问信息。",
  examples: "示例",
} satisfies TcfStrings;
