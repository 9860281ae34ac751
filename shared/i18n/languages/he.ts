// עברית. Roles as Hebrew GDPR texts and compliant sites word them: בקר נתונים, מעבד נתונים, נמען (the Israeli
// Privacy Protection Law's בעל מאגר / מחזיק are database-registration terms, not GDPR roles). Verbs after {c} are
// forms that do not change with gender (רוצה, עושה).
import type { Strings } from "../strings";
export default {
  title: "הגדרות הפרטיות שלך",
  intro: "{c} רוצה להשתמש בנתונים שלך כמתואר בהמשך. אפשר לשנות את הבחירה בכל עת.",
  privacyPolicy: "מדיניות פרטיות",
  terms: "תנאים",
  cookiePolicy: "מדיניות עוגיות",
  acceptAll: "אישור הכול",
  rejectAll: "דחיית הכול",
  save: "שמירת הבחירות",
  close: "סגירה",
  details: "פרטים",
  dataUsed: "נתונים שנעשה בהם שימוש",
  controller: "בקר נתונים",
  processor: "מעבד נתונים",
  recipient: "נמען",
  consent: "הסכמה",
  contract: "ביצוע חוזה",
  legitimateInterests: "אינטרס לגיטימי",
  legalObligation: "עמידה בחובה חוקית",
  object: "התנגדות",
  objectionSent: "ההתנגדות נשלחה",
  new: "חדש",
  gpc: "הדפדפן שלך שולח Global Privacy Control, ולכן ההסכמות כבויות בהתחלה.",
  serviceDown: "לא ניתן היה להתחבר לשירות הפרטיות, ולכן שום דבר לא נשמר.",
  retry: "ניסיון חוזר",
  saved: "הבחירות שלך נשמרו.",
  thisSite: "האתר הזה",
  noticeOptIn:
    "{c} רוצה להשתמש בנתונים שלך, בהסכמתך, למטרות שאפשר לעיין בהן תחת ״התאמה אישית״. אפשר לשנות את הבחירה בכל עת.",
  noticeOptOut:
    "{c} עושה שימוש בנתונים שלך כמתואר תחת ״הגדרות הפרטיות שלך״, שעשוי לכלול שיתוף שלהם עם שותפים. אפשר לסרב לכך בכל עת.",
  noticeOnly: "{c} עושה שימוש בנתונים שלך כמתואר תחת ״הגדרות הפרטיות שלך״, שם אפשר גם להתנגד.",
  customize: "התאמה אישית",
  gpcApplied: "הדפדפן שלך שולח Global Privacy Control, ולכן המכירה והשיתוף של הנתונים שלך הושבתו.",
  ok: "הבנתי",
  offline: "הבחירה שלך נשמרת במכשיר הזה ותישלח כששירות הפרטיות יגיב.",
  downloadReceipt: "הורדת אישור",
  exempt: "אינו דורש הסכמה",
} satisfies Strings;
