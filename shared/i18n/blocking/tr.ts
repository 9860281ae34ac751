// Turkish.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Videoyu {v} üzerinden yükle: bu, verileri {c} ile paylaşır",
  map: "Haritayı {v} üzerinden yükle: bu, verileri {c} ile paylaşır",
  audio: "Sesi {v} üzerinden yükle: bu, verileri {c} ile paylaşır",
  content: "İçeriği {v} üzerinden yükle ve {p} için onay ver",
} satisfies BlockingStrings;
