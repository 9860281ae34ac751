// Korean.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "당사와 {c}개 공급업체는 기기에 정보를 저장하거나 액세스하고 아래 목적을 위해 개인 데이터를 처리합니다.",
  objectNote: "일부 공급업체는 정당한 이익을 근거로 개인 데이터를 처리하며, ‘맞춤 설정’에서 이에 반대할 수 있습니다.",
  vendorList: "공급업체 목록",
  retention: "{c}일 동안 보관",
  features: "특수 목적 및 기능",
  storage: "기기에 저장",
  cookies: "쿠키 사용: {c}",
  cookie: "쿠키",
  web: "웹 저장소",
  app: "앱 저장소",
  maxAge: "최대 {c}일",
  session: "세션 동안만",
  refreshed: "방문할 때마다 갱신",
  noCookies: "쿠키 사용 안 함",
  otherAccess: "웹 저장소 등 기기의 기타 저장 또는 접근",
  unavailable: "공급업체의 저장 정보를 불러올 수 없습니다.",
  notAllowed: "이 사이트에서 허용하지 않음",
  acProviders: "Google 광고 기술 제공업체",
  acNote: "IAB 공급업체 목록에 없음: Google의 추가 동의 문자열이 이들에게 동의 여부를 전달하며, 이를 위해서는 기기에 정보를 저장하고 접근하는 데 대한 동의도 필요합니다.",
  examples: "예시",
} satisfies TcfStrings;
