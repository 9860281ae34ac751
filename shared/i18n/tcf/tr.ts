// Turkish.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Biz ve {c} tedarikçimiz bir cihazda bilgi depolar ve/veya bu bilgilere erişir ve kişisel verileri aşağıdaki amaçlarla işleriz.",
  objectNote: "Bazı tedarikçiler kişisel verileri meşru menfaatlerine dayanarak işler; buna Özelleştir bölümünden itiraz edebilirsiniz.",
  vendorList: "Tedarikçi listesi",
  retention: "{c} gün saklanır",
  features: "Özel amaçlar ve özellikler",
  storage: "Cihazınızda depolama",
  cookies: "Çerez kullanır: {c}",
  cookie: "bir çerez",
  web: "web depolama",
  app: "uygulama depolaması",
  maxAge: "en fazla {c} gün",
  session: "yalnızca oturum boyunca",
  refreshed: "her ziyarette yenilenir",
  noCookies: "Çerez yok",
  otherAccess: "Cihazda web depolama gibi başka depolama veya erişim",
  unavailable: "Tedarikçinin depolama ayrıntıları yüklenemedi.",
  notAllowed: "Bu site izin vermiyor",
  acProviders: "Google'ın reklam teknolojisi sağlayıcıları",
  acNote: "IAB tedarikçi listesinde değiller: Google'ın Ek Onay dizesi onayınızı onlara iletir; bunun için cihazda bilgi depolanmasına ve bilgiye erişilmesine de onay vermeniz gerekir.",
  examples: "Örnekler",
} satisfies TcfStrings;
