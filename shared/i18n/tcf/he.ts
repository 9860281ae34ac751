// Hebrew.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "אנחנו והספקים שלנו ({c}) מאחסנים מידע במכשיר ו/או ניגשים אליו ומעבדים מידע אישי למטרות שלהלן.",
  objectNote: "חלק מהספקים מעבדים מידע אישי על בסיס האינטרס הלגיטימי שלהם, ותוכלו להתנגד לכך תחת התאמה אישית.",
  vendorList: "רשימת הספקים",
  retention: "נשמר {c} ימים",
  features: "מטרות ותכונות מיוחדות",
  storage: "אחסון במכשיר שלך",
  cookies: "משתמש בקובצי Cookie: {c}",
  cookie: "קובץ Cookie",
  web: "אחסון אינטרנט",
  app: "אחסון אפליקציה",
  maxAge: "עד {c} ימים",
  session: "לזמן ההפעלה בלבד",
  refreshed: "מתחדש בכל ביקור",
  noCookies: "ללא קובצי Cookie",
  otherAccess: "אחסון או גישה אחרים במכשיר, כגון אחסון אינטרנט",
  unavailable: "לא ניתן היה לטעון את פרטי האחסון של הספק.",
  notAllowed: "לא מותר על ידי אתר זה",
  acProviders: "ספקי טכנולוגיית הפרסום של Google",
  acNote: "אינם ברשימת הספקים של IAB: מחרוזת ההסכמה הנוספת של Google מעבירה אליהם את הסכמתך, שמחייבת גם את הסכמתך לאחסון מידע במכשיר ולגישה אליו.",
  examples: "דוגמאות",
} satisfies TcfStrings;
