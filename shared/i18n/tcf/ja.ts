// Japanese.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "当社と{c}社のベンダーは、以下の目的のために、端末に情報を保存またはアクセスし、個人データを処理します。",
  objectNote: "一部のベンダーは正当な利益に基づいて個人データを処理しています。これには「カスタマイズ」で異議を申し立てることができます。",
  vendorList: "ベンダー一覧",
  retention: "{c}日間保存",
  features: "特別な目的と機能",
  storage: "お使いの端末への保存",
  cookies: "Cookie を使用：{c}",
  cookie: "Cookie",
  web: "ウェブストレージ",
  app: "アプリのストレージ",
  maxAge: "最長 {c} 日",
  session: "セッション中のみ",
  refreshed: "訪問のたびに更新",
  noCookies: "Cookie は使用しません",
  otherAccess: "ウェブストレージなど、端末でのその他の保存またはアクセス",
  unavailable: "ベンダーの保存情報を読み込めませんでした。",
  notAllowed: "このサイトでは許可されていません",
  acProviders: "Google の広告技術プロバイダ",
  acNote: "IAB のベンダー一覧には含まれていません。Google の追加同意文字列により同意が伝えられますが、それには端末への情報の保存とアクセスへの同意も必要です。",
  examples: "例",
} satisfies TcfStrings;
