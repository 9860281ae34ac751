// Macedonian.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Вчитај го видеото од {v}: со ова се споделуваат податоци со {c}",
  map: "Вчитај го картата од {v}: со ова се споделуваат податоци со {c}",
  audio: "Вчитај го аудиото од {v}: со ова се споделуваат податоци со {c}",
  content: "Вчитај ја содржината од {v} и дај согласност за {p}",
} satisfies BlockingStrings;
