// Albanian.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Ne dhe shitësit tanë ({c}) ruajmë dhe/ose aksesojmë informacione në një pajisje dhe përpunojmë të dhëna personale për qëllimet më poshtë.",
  objectNote: "Disa shitës përpunojnë të dhëna personale në bazë të interesit të tyre legjitim, të cilit mund t'i kundërshtoni te Personalizo.",
  vendorList: "Lista e shitësve",
  retention: "ruhen për {c} ditë",
  features: "Qëllime të veçanta dhe veçori",
  storage: "Ruajtja në pajisjen tuaj",
  cookies: "Përdor cookie: {c}",
  cookie: "një cookie",
  web: "ruajtje në ueb",
  app: "ruajtje e aplikacionit",
  maxAge: "deri në {c} ditë",
  session: "vetëm për seancën",
  refreshed: "rinovohet në çdo vizitë",
  noCookies: "Pa cookie",
  otherAccess: "Ruajtje ose qasje tjetër në pajisje, si ruajtja në ueb",
  unavailable: "Të dhënat e ruajtjes së shitësit nuk mund të ngarkoheshin.",
  notAllowed: "Nuk lejohet nga ky sajt",
  acProviders: "Ofruesit e teknologjisë së reklamave të Google",
  acNote: "Nuk janë në listën e shitësve të IAB: vargu i Pëlqimit Shtesë të Google u përcjell pëlqimin tuaj, që kërkon gjithashtu pëlqimin tuaj për ruajtjen e informacionit në një pajisje dhe qasjen në të.",
  examples: "Shembuj",
} satisfies TcfStrings;
