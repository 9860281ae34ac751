// Catalan.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Nosaltres i els nostres {c} proveïdors emmagatzemem i/o accedim a informació d'un dispositiu i tractem dades personals per a les finalitats següents.",
  objectNote: "Alguns proveïdors tracten dades personals sobre la base del seu interès legítim, al qual us podeu oposar a Personalitzar.",
  vendorList: "Llista de proveïdors",
  retention: "conservades {c} dies",
  features: "Finalitats especials i funcions",
  storage: "Emmagatzematge al vostre dispositiu",
  cookies: "Fa servir galetes: {c}",
  cookie: "una galeta",
  web: "emmagatzematge web",
  app: "emmagatzematge de l'aplicació",
  maxAge: "fins a {c} dies",
  session: "només durant la sessió",
  refreshed: "es renova a cada visita",
  noCookies: "Sense galetes",
  otherAccess: "Altres formes d'emmagatzematge o d'accés al dispositiu, com l'emmagatzematge web",
  unavailable: "No s'han pogut carregar les dades d'emmagatzematge del proveïdor.",
  notAllowed: "No permès per aquest lloc",
  acProviders: "Proveïdors de tecnologia publicitària de Google",
  acNote: "No són a la llista de proveïdors de l'IAB: la cadena de consentiment addicional de Google els transmet el vostre consentiment, que també requereix el vostre consentiment per emmagatzemar informació en un dispositiu i accedir-hi.",
  examples: "Exemples",
} satisfies TcfStrings;
