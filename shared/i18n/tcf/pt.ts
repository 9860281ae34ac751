// Portuguese (Portugal).
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Nós e os nossos {c} fornecedores armazenamos e/ou acedemos a informações num dispositivo e tratamos dados pessoais para as finalidades abaixo.",
  objectNote: "Alguns fornecedores tratam dados pessoais com base no seu interesse legítimo, ao qual se pode opor em «Personalizar».",
  vendorList: "Lista de fornecedores",
  retention: "conservados durante {c} dias",
  features: "Finalidades especiais e funcionalidades",
  storage: "Armazenamento no seu dispositivo",
  cookies: "Utiliza cookies: {c}",
  cookie: "um cookie",
  web: "armazenamento web",
  app: "armazenamento da aplicação",
  maxAge: "até {c} dias",
  session: "apenas durante a sessão",
  refreshed: "renovado em cada visita",
  noCookies: "Sem cookies",
  otherAccess: "Outro armazenamento ou acesso no dispositivo, como o armazenamento web",
  unavailable: "Não foi possível carregar os dados de armazenamento do fornecedor.",
  notAllowed: "Não permitido por este site",
  acProviders: "Fornecedores de tecnologia publicitária da Google",
  acNote: "Não constam da lista de fornecedores do IAB: a cadeia de Consentimento Adicional da Google transmite-lhes o seu consentimento, que exige também o seu consentimento para armazenar informações num dispositivo e aceder a elas.",
  examples: "Exemplos",
} satisfies TcfStrings;
