// Swedish.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Vi och våra {c} leverantörer lagrar och/eller får åtkomst till information på en enhet och behandlar personuppgifter för ändamålen nedan.",
  objectNote: "Vissa leverantörer behandlar personuppgifter med stöd av sitt berättigade intresse, vilket du kan invända mot under Anpassa.",
  vendorList: "Leverantörslista",
  retention: "sparas i {c} dagar",
  features: "Särskilda ändamål och funktioner",
  storage: "Lagring på din enhet",
  cookies: "Använder kakor: {c}",
  cookie: "en kaka",
  web: "webblagring",
  app: "applagring",
  maxAge: "upp till {c} dagar",
  session: "endast under sessionen",
  refreshed: "förnyas vid varje besök",
  noCookies: "Inga kakor",
  otherAccess: "Annan lagring eller åtkomst på enheten, till exempel webblagring",
  unavailable: "Leverantörens uppgifter om lagring kunde inte läsas in.",
  notAllowed: "Inte tillåtet av den här webbplatsen",
  acProviders: "Googles annonsteknikleverantörer",
  acNote: "Finns inte i IAB:s leverantörslista: Googles Additional Consent-sträng förmedlar ditt samtycke till dem, vilket också kräver ditt samtycke till lagring av och åtkomst till information på en enhet.",
  examples: "Exempel",
} satisfies TcfStrings;
