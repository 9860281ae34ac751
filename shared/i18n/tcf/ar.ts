// Arabic.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "نحن ومورّدونا ({c}) نخزّن معلومات على الجهاز و/أو نصل إليها ونعالج بيانات شخصية للأغراض الموضحة أدناه.",
  objectNote: "يعالج بعض المورّدين البيانات الشخصية على أساس مصلحتهم المشروعة، ويمكنك الاعتراض على ذلك ضمن «تخصيص».",
  vendorList: "قائمة المورّدين",
  retention: "تُحفظ لمدة {c} يومًا",
  features: "الأغراض والميزات الخاصة",
} satisfies TcfStrings;
