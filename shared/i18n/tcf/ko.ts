// Korean.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "당사와 {c}개 공급업체는 기기에 정보를 저장하거나 액세스하고 아래 목적을 위해 개인 데이터를 처리합니다.",
  objectNote: "일부 공급업체는 정당한 이익을 근거로 개인 데이터를 처리하며, ‘맞춤 설정’에서 이에 반대할 수 있습니다.",
  vendorList: "공급업체 목록",
  retention: "{c}일 동안 보관",
  features: "특수 목적 및 기능",
} satisfies TcfStrings;
