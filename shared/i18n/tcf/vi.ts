// Vietnamese.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Chúng tôi và {c} nhà cung cấp của chúng tôi lưu trữ và/hoặc truy cập thông tin trên thiết bị và xử lý dữ liệu cá nhân cho các mục đích dưới đây.",
  objectNote: "Một số nhà cung cấp xử lý dữ liệu cá nhân dựa trên lợi ích hợp pháp của họ, bạn có thể phản đối điều này trong Tùy chỉnh.",
  vendorList: "Danh sách nhà cung cấp",
  retention: "lưu giữ {c} ngày",
  features: "Mục đích đặc biệt và tính năng",
} satisfies TcfStrings;
