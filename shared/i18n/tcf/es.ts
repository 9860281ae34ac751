// Spanish.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Nosotros y nuestros {c} proveedores almacenamos y/o accedemos a información en un dispositivo y tratamos datos personales para los fines indicados a continuación.",
  objectNote: "Algunos proveedores tratan datos personales sobre la base de su interés legítimo, al que puede oponerse en «Personalizar».",
  vendorList: "Lista de proveedores",
  retention: "se conservan {c} días",
  features: "Fines especiales y funciones",
  storage: "Almacenamiento en su dispositivo",
  cookies: "Usa cookies: {c}",
  cookie: "una cookie",
  web: "almacenamiento web",
  app: "almacenamiento de la aplicación",
  maxAge: "hasta {c} días",
  session: "solo durante la sesión",
  refreshed: "se renueva en cada visita",
  noCookies: "Sin cookies",
  otherAccess: "Otro almacenamiento o acceso en el dispositivo, como el almacenamiento web",
  unavailable: "No se han podido cargar los datos de almacenamiento del proveedor.",
  notAllowed: "No permitido por este sitio",
  acProviders: "Proveedores de tecnología publicitaria de Google",
  acNote: "No figuran en la lista de proveedores de IAB: la cadena de Consentimiento adicional de Google les transmite su consentimiento, que también requiere su consentimiento para almacenar información en un dispositivo y acceder a ella.",
  examples: "Ejemplos",
} satisfies TcfStrings;
