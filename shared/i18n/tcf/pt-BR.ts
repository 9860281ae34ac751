// Portuguese (Brazil).
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Nós e nossos {c} fornecedores armazenamos e/ou acessamos informações em um dispositivo e tratamos dados pessoais para as finalidades abaixo.",
  objectNote: "Alguns fornecedores tratam dados pessoais com base em seu legítimo interesse, ao qual você pode se opor em “Personalizar”.",
  vendorList: "Lista de fornecedores",
  retention: "mantidos por {c} dias",
  features: "Finalidades especiais e recursos",
} satisfies TcfStrings;
