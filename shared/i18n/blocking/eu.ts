// Basque.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Kargatu {v} zerbitzuko bideoa: honek datuak partekatzen ditu {c} enpresarekin",
  map: "Kargatu {v} zerbitzuko mapa: honek datuak partekatzen ditu {c} enpresarekin",
  audio: "Kargatu {v} zerbitzuko audioa: honek datuak partekatzen ditu {c} enpresarekin",
  content: "Kargatu {v} zerbitzuko edukia eta eman baimena honetarako: {p}",
} satisfies BlockingStrings;
