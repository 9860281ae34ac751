// Vietnamese.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Chúng tôi và {c} nhà cung cấp của chúng tôi lưu trữ và/hoặc truy cập thông tin trên thiết bị và xử lý dữ liệu cá nhân cho các mục đích dưới đây.",
  objectNote: "Một số nhà cung cấp xử lý dữ liệu cá nhân dựa trên lợi ích hợp pháp của họ, bạn có thể phản đối điều này trong Tùy chỉnh.",
  vendorList: "Danh sách nhà cung cấp",
  retention: "lưu giữ {c} ngày",
  features: "Mục đích đặc biệt và tính năng",
  storage: "Lưu trữ trên thiết bị của bạn",
  cookies: "Sử dụng cookie: {c}",
  cookie: "một cookie",
  web: "bộ nhớ web",
  app: "bộ nhớ ứng dụng",
  maxAge: "tối đa {c} ngày",
  session: "chỉ trong phiên",
  refreshed: "được gia hạn mỗi lần truy cập",
  noCookies: "Không dùng cookie",
  otherAccess: "Cách lưu trữ hoặc truy cập khác trên thiết bị, chẳng hạn bộ nhớ web",
  unavailable: "Không thể tải thông tin lưu trữ của nhà cung cấp.",
  notAllowed: "Trang web này không cho phép",
  acProviders: "Nhà cung cấp công nghệ quảng cáo của Google",
  acNote: "Không có trong danh sách nhà cung cấp của IAB: chuỗi Đồng ý bổ sung của Google chuyển sự đồng ý của bạn tới họ, điều này cũng cần bạn đồng ý cho việc lưu trữ và truy cập thông tin trên thiết bị.",
  examples: "Ví dụ",
} satisfies TcfStrings;
