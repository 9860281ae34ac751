// Indonesian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Kami dan {c} vendor kami menyimpan dan/atau mengakses informasi di perangkat serta memproses data pribadi untuk tujuan di bawah ini.",
  objectNote: "Beberapa vendor memproses data pribadi berdasarkan kepentingan sah mereka, yang dapat Anda tolak di Sesuaikan.",
  vendorList: "Daftar vendor",
  retention: "disimpan selama {c} hari",
  features: "Tujuan khusus dan fitur",
} satisfies TcfStrings;
