// Galician.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Nós e os nosos {c} provedores almacenamos e/ou accedemos a información nun dispositivo e tratamos datos persoais para os fins indicados a continuación.",
  objectNote: "Algúns provedores tratan datos persoais sobre a base do seu interese lexítimo, ao que pode oporse en Personalizar.",
  vendorList: "Lista de provedores",
  retention: "consérvanse {c} días",
  features: "Fins especiais e funcións",
  storage: "Almacenamento no seu dispositivo",
  cookies: "Usa cookies: {c}",
  cookie: "unha cookie",
  web: "almacenamento web",
  app: "almacenamento da aplicación",
  maxAge: "ata {c} días",
  session: "só durante a sesión",
  refreshed: "renóvase en cada visita",
  noCookies: "Sen cookies",
  otherAccess: "Outro almacenamento ou acceso no dispositivo, como o almacenamento web",
  unavailable: "Non se puideron cargar os datos de almacenamento do provedor.",
  notAllowed: "Non permitido por este sitio",
  acProviders: "Provedores de tecnoloxía publicitaria de Google",
  acNote: "Non figuran na lista de provedores de IAB: a cadea de Consentimento adicional de Google transmítelles o seu consentimento, que tamén require o seu consentimento para almacenar información nun dispositivo e acceder a ela.",
  examples: "Exemplos",
} satisfies TcfStrings;
