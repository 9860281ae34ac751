// Indonesian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Kami dan {c} vendor kami menyimpan dan/atau mengakses informasi di perangkat serta memproses data pribadi untuk tujuan di bawah ini.",
  objectNote: "Beberapa vendor memproses data pribadi berdasarkan kepentingan sah mereka, yang dapat Anda tolak di Sesuaikan.",
  vendorList: "Daftar vendor",
  retention: "disimpan selama {c} hari",
  features: "Tujuan khusus dan fitur",
  storage: "Penyimpanan di perangkat Anda",
  cookies: "Menggunakan cookie: {c}",
  cookie: "sebuah cookie",
  web: "penyimpanan web",
  app: "penyimpanan aplikasi",
  maxAge: "hingga {c} hari",
  session: "hanya selama sesi",
  refreshed: "diperbarui setiap kunjungan",
  noCookies: "Tanpa cookie",
  otherAccess: "Penyimpanan atau akses lain di perangkat, seperti penyimpanan web",
  unavailable: "Detail penyimpanan vendor tidak dapat dimuat.",
  notAllowed: "Tidak diizinkan oleh situs ini",
  acProviders: "Penyedia Teknologi Iklan Google",
  acNote: "Tidak ada dalam daftar vendor IAB: string Persetujuan Tambahan Google menyampaikan persetujuan Anda kepada mereka, yang juga memerlukan persetujuan Anda untuk menyimpan dan mengakses informasi di perangkat.",
  examples: "Contoh",
} satisfies TcfStrings;
