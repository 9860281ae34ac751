// Malay.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Kami dan {c} vendor kami menyimpan dan/atau mengakses maklumat pada peranti dan memproses data peribadi untuk tujuan di bawah.",
  objectNote: "Sesetengah vendor memproses data peribadi berdasarkan kepentingan sah mereka, yang boleh anda bantah di Sesuaikan.",
  vendorList: "Senarai vendor",
  retention: "disimpan selama {c} hari",
  features: "Tujuan khas dan ciri",
} satisfies TcfStrings;
