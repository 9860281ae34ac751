// Luxembourgish.
import type { BlockingStrings } from "../blocking";
export default {
  video: "De Video vun {v} lueden: domat ginn Daten mat {c} gedeelt",
  map: "D'Kaart vun {v} lueden: domat ginn Daten mat {c} gedeelt",
  audio: "Den Audio vun {v} lueden: domat ginn Daten mat {c} gedeelt",
  content: "Inhalt vun {v} lueden an {p} zoustëmmen",
} satisfies BlockingStrings;
