// Hindi.
import type { BlockingStrings } from "../blocking";
export default {
  video: "{v} से वीडियो लोड करें: इससे {c} के साथ डेटा साझा होता है",
  map: "{v} से मानचित्र लोड करें: इससे {c} के साथ डेटा साझा होता है",
  audio: "{v} से ऑडियो लोड करें: इससे {c} के साथ डेटा साझा होता है",
  content: "{v} से सामग्री लोड करें और {p} के लिए सहमति दें",
} satisfies BlockingStrings;
