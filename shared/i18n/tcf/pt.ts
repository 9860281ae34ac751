// Portuguese (Portugal).
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Nós e os nossos {c} fornecedores armazenamos e/ou acedemos a informações num dispositivo e tratamos dados pessoais para as finalidades abaixo.",
  objectNote: "Alguns fornecedores tratam dados pessoais com base no seu interesse legítimo, ao qual se pode opor em «Personalizar».",
  vendorList: "Lista de fornecedores",
  retention: "conservados durante {c} dias",
  features: "Finalidades especiais e funcionalidades",
} satisfies TcfStrings;
