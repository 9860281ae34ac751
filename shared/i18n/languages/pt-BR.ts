import type { Strings } from "../strings";

/*
 * Brazilian Portuguese: "você", Brazilian wording (salvar, baixar, compartilhar, site). Roles: the GDPR has no Brazilian
 * text, and its European Portuguese terms mislead here ("subcontratante" reads as "subcontractor" in Brazil). A Brazilian
 * site of a company under the GDPR is read by people who know the LGPD's words for the same roles (Art. 5: controlador,
 * operador; the GDPR's recipient has no LGPD term, so "destinatário", the word both texts use), and such companies
 * answer to the LGPD too, so the labels use those terms; legal grounds follow LGPD Art. 7 ("obrigação legal").
 */
export default {
  title: "Suas opções de privacidade",
  intro: "{c} gostaria de usar seus dados conforme descrito abaixo. Você pode mudar de ideia a qualquer momento.",
  privacyPolicy: "Política de privacidade",
  terms: "Termos de uso",
  cookiePolicy: "Política de cookies",
  acceptAll: "Aceitar todos",
  rejectAll: "Rejeitar todos",
  save: "Salvar opções",
  close: "Fechar",
  details: "Detalhes",
  dataUsed: "Dados utilizados",
  controller: "Controlador",
  processor: "Operador",
  recipient: "Destinatário",
  consent: "Consentimento",
  contract: "Execução de contrato",
  legitimateInterests: "Interesses legítimos",
  legalObligation: "Cumprimento de obrigação legal",
  object: "Opor-se",
  objectionSent: "Oposição enviada",
  new: "Nova",
  gpc: "Seu navegador envia o sinal Global Privacy Control, por isso o consentimento começa desativado.",
  serviceDown: "Não foi possível acessar o serviço de privacidade, então nada foi salvo.",
  retry: "Tentar novamente",
  saved: "Suas opções foram salvas.",
  thisSite: "Este site",
  noticeOptIn:
    "{c} gostaria de usar seus dados, com seu consentimento, para as finalidades que você pode conferir em “Personalizar”. Você pode mudar de ideia a qualquer momento.",
  noticeOptOut:
    "{c} usa seus dados conforme descrito em “Suas opções de privacidade”, o que pode incluir o compartilhamento com parceiros. Você pode recusar a qualquer momento.",
  noticeOnly: "{c} usa seus dados conforme descrito em “Suas opções de privacidade”, onde você também pode se opor.",
  customize: "Personalizar",
  gpcApplied: "Seu navegador envia o sinal Global Privacy Control, por isso seus dados não serão vendidos nem compartilhados.",
  ok: "OK",
  offline: "Sua escolha fica salva neste dispositivo e será enviada quando o serviço de privacidade responder.",
  downloadReceipt: "Baixar comprovante",
  exempt: "Não requer consentimento",
  doNotSell: "Não vender nem compartilhar minhas informações pessoais",
  limitSensitive: "Limitar o uso das minhas informações pessoais sensíveis",
} satisfies Strings;
