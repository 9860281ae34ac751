// Malay.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Kami dan {c} vendor kami menyimpan dan/atau mengakses maklumat pada peranti dan memproses data peribadi untuk tujuan di bawah.",
  objectNote: "Sesetengah vendor memproses data peribadi berdasarkan kepentingan sah mereka, yang boleh anda bantah di Sesuaikan.",
  vendorList: "Senarai vendor",
  retention: "disimpan selama {c} hari",
  features: "Tujuan khas dan ciri",
  storage: "Storan pada peranti anda",
  cookies: "Menggunakan kuki: {c}",
  cookie: "satu kuki",
  web: "storan web",
  app: "storan aplikasi",
  maxAge: "sehingga {c} hari",
  session: "untuk sesi sahaja",
  refreshed: "diperbaharui pada setiap lawatan",
  noCookies: "Tiada kuki",
  otherAccess: "Storan atau akses lain pada peranti, seperti storan web",
  unavailable: "Butiran storan vendor tidak dapat dimuatkan.",
  notAllowed: "Tidak dibenarkan oleh laman ini",
  acProviders: "Penyedia Teknologi Iklan Google",
  acNote: "Tiada dalam senarai vendor IAB: rentetan Persetujuan Tambahan Google menyampaikan persetujuan anda kepada mereka, yang juga memerlukan persetujuan anda untuk menyimpan dan mengakses maklumat pada peranti.",
  examples: "Contoh-contoh",
} satisfies TcfStrings;
