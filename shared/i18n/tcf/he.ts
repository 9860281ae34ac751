// Hebrew.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "אנחנו והספקים שלנו ({c}) מאחסנים מידע במכשיר ו/או ניגשים אליו ומעבדים מידע אישי למטרות שלהלן.",
  objectNote: "חלק מהספקים מעבדים מידע אישי על בסיס האינטרס הלגיטימי שלהם, ותוכלו להתנגד לכך תחת התאמה אישית.",
  vendorList: "רשימת הספקים",
  retention: "נשמר {c} ימים",
  features: "מטרות ותכונות מיוחדות",
} satisfies TcfStrings;
