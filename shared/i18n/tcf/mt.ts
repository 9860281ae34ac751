// Maltese.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Aħna u l-fornituri tagħna ({c}) naħżnu u/jew naċċessaw informazzjoni fuq apparat u nipproċessaw data personali għall-għanijiet hawn taħt.",
  objectNote: "Xi fornituri jipproċessaw data personali abbażi tal-interess leġittimu tagħhom, li tista' toġġezzjona għalih taħt “Ippersonalizza”.",
  vendorList: "Lista tal-fornituri",
  retention: "miżmuma għal {c} jiem",
  features: "Għanijiet speċjali u karatteristiċi",
  storage: "Ħżin fuq it-tagħmir tiegħek",
  cookies: "Juża cookies: {c}",
  cookie: "cookie waħda",
  web: "ħżin tal-web",
  app: "ħżin tal-app",
  maxAge: "sa {c} jiem",
  session: "għas-sessjoni biss",
  refreshed: "jiġġedded f'kull żjara",
  noCookies: "Ebda cookies",
  otherAccess: "Ħżin jew aċċess ieħor fuq it-tagħmir, bħall-ħżin tal-web",
  unavailable: "Id-dettalji tal-ħżin tal-fornitur ma setgħux jittellgħu.",
  notAllowed: "Mhux permess minn dan is-sit",
  acProviders: "Il-Fornituri tat-Teknoloġija tar-Reklamar ta' Google",
  acNote: "Mhumiex fil-lista tal-fornituri tal-IAB: is-sekwenza tal-Kunsens Addizzjonali ta' Google twasslilhom il-kunsens tiegħek, li jeħtieġ ukoll il-kunsens tiegħek għall-ħżin ta' informazzjoni fuq tagħmir u għall-aċċess għaliha.",
  examples: "Eżempji",
} satisfies TcfStrings;
