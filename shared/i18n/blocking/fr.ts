// French.
import type { BlockingStrings } from "../blocking";
export default {
  video: "Charger la vidéo de {v} : cela partage des données avec {c}",
  map: "Charger la carte de {v} : cela partage des données avec {c}",
  audio: "Charger l'audio de {v} : cela partage des données avec {c}",
  content: "Charger le contenu de {v} et consentir à {p}",
} satisfies BlockingStrings;
