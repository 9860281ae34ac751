import type { Strings } from "../strings";

/* European Portuguese: the third-person "o seu"/"pode" of Portuguese sites; the Regulation's PT terms (processor = subcontratante). */
export default {
  title: "Opções de privacidade",
  intro: "{c} gostaria de utilizar os seus dados como descrito abaixo. Pode mudar de ideias a qualquer momento.",
  privacyPolicy: "Política de privacidade",
  terms: "Termos e condições",
  cookiePolicy: "Política de cookies",
  acceptAll: "Aceitar tudo",
  rejectAll: "Rejeitar tudo",
  save: "Guardar opções",
  close: "Fechar",
  details: "Detalhes",
  dataUsed: "Dados utilizados",
  controller: "Responsável pelo tratamento",
  processor: "Subcontratante",
  recipient: "Destinatário",
  consent: "Consentimento",
  contract: "Execução de um contrato",
  legitimateInterests: "Interesses legítimos",
  legalObligation: "Cumprimento de uma obrigação jurídica",
  object: "Opor-me",
  objectionSent: "Oposição enviada",
  new: "Nova",
  gpc: "O seu navegador envia o sinal Global Privacy Control, por isso o consentimento começa desativado.",
  serviceDown: "Não foi possível contactar o serviço de privacidade, por isso nada foi guardado.",
  retry: "Tentar novamente",
  saved: "As suas opções foram guardadas.",
  thisSite: "Este site",
  noticeOptIn:
    "{c} gostaria de utilizar os seus dados, com o seu consentimento, para as finalidades que pode consultar em «Personalizar». Pode mudar de ideias a qualquer momento.",
  noticeOptOut:
    "{c} utiliza os seus dados como descrito em «Opções de privacidade», o que pode incluir partilhá-los com parceiros. Pode recusar a qualquer momento.",
  noticeOnly: "{c} utiliza os seus dados como descrito em «Opções de privacidade», onde também se pode opor.",
  customize: "Personalizar",
  gpcApplied:
    "O seu navegador envia o sinal Global Privacy Control, por isso os seus dados não serão vendidos nem partilhados.",
  ok: "OK",
  offline: "A sua opção fica guardada neste dispositivo e será enviada quando o serviço de privacidade responder.",
  downloadReceipt: "Transferir comprovativo",
  exempt: "Não requer consentimento",
} satisfies Strings;
