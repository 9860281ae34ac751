// Portuguese (Brazil).
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Nós e nossos {c} fornecedores armazenamos e/ou acessamos informações em um dispositivo e tratamos dados pessoais para as finalidades abaixo.",
  objectNote: "Alguns fornecedores tratam dados pessoais com base em seu legítimo interesse, ao qual você pode se opor em “Personalizar”.",
  vendorList: "Lista de fornecedores",
  retention: "mantidos por {c} dias",
  features: "Finalidades especiais e recursos",
  storage: "Armazenamento no seu dispositivo",
  cookies: "Usa cookies: {c}",
  cookie: "um cookie",
  web: "armazenamento da web",
  app: "armazenamento do app",
  maxAge: "até {c} dias",
  session: "somente durante a sessão",
  refreshed: "renovado a cada visita",
  noCookies: "Sem cookies",
  otherAccess: "Outro armazenamento ou acesso no dispositivo, como o armazenamento da web",
  unavailable: "Não foi possível carregar os dados de armazenamento do fornecedor.",
  notAllowed: "Não permitido por este site",
  acProviders: "Provedores de tecnologia de publicidade do Google",
  acNote: "Não estão na lista de fornecedores do IAB: a string de Consentimento Adicional do Google transmite a eles o seu consentimento, que também exige seu consentimento para armazenar e acessar informações em um dispositivo.",
  examples: "Exemplos",
} satisfies TcfStrings;
