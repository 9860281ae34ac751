// Chinese (Simplified).
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "我们和我们的 {c} 家供应商在设备上存储和/或访问信息，并为以下目的处理个人数据。",
  objectNote: "部分供应商基于其正当利益处理个人数据，您可以在“自定义”中提出反对。",
  vendorList: "供应商列表",
  retention: "保留 {c} 天",
  features: "特殊目的和功能",
} satisfies TcfStrings;
