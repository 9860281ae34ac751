// Japanese.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "当社と{c}社のベンダーは、以下の目的のために、端末に情報を保存またはアクセスし、個人データを処理します。",
  objectNote: "一部のベンダーは正当な利益に基づいて個人データを処理しています。これには「カスタマイズ」で異議を申し立てることができます。",
  vendorList: "ベンダー一覧",
  retention: "{c}日間保存",
  features: "特別な目的と機能",
} satisfies TcfStrings;
