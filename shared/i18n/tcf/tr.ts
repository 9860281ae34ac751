// Turkish.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Biz ve {c} tedarikçimiz bir cihazda bilgi depolar ve/veya bu bilgilere erişir ve kişisel verileri aşağıdaki amaçlarla işleriz.",
  objectNote: "Bazı tedarikçiler kişisel verileri meşru menfaatlerine dayanarak işler; buna Özelleştir bölümünden itiraz edebilirsiniz.",
  vendorList: "Tedarikçi listesi",
  retention: "{c} gün saklanır",
  features: "Özel amaçlar ve özellikler",
} satisfies TcfStrings;
