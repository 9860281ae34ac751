// Irish.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Stórálaimid féin agus ár ndíoltóirí ({c}) faisnéis ar ghléas agus/nó faighimid rochtain uirthi, agus próiseálaimid sonraí pearsanta chun na gcuspóirí thíos.",
  objectNote: "Próiseálann roinnt díoltóirí sonraí pearsanta ar bhonn a leasa dhlisteanaigh, agus is féidir leat agóid a dhéanamh ina choinne faoi “Saincheap”.",
  vendorList: "Liosta díoltóirí",
  retention: "coinnithe ar feadh {c} lá",
  features: "Cuspóirí speisialta agus gnéithe",
  storage: "Stóráil ar do ghléas",
  cookies: "Úsáideann sé fianáin: {c}",
  cookie: "fianán",
  web: "stóráil ghréasáin",
  app: "stóráil aipe",
  maxAge: "suas le {c} lá",
  session: "don seisiún amháin",
  refreshed: "athnuaitear é ar gach cuairt",
  noCookies: "Gan fianáin",
  otherAccess: "Stóráil nó rochtain eile ar an ngléas, mar shampla stóráil ghréasáin",
  unavailable: "Níorbh fhéidir sonraí stórála an díoltóra a lódáil.",
  notAllowed: "Ní cheadaíonn an suíomh seo é",
  acProviders: "Soláthraithe Teicneolaíochta Fógraíochta Google",
  acNote: "Níl siad ar liosta díoltóirí IAB: cuireann teaghrán Toilithe Bhreise Google do thoiliú in iúl dóibh, agus tá do thoiliú ag teastáil freisin chun faisnéis a stóráil ar ghléas agus rochtain a fháil uirthi.",
  examples: "Samplaí",
} satisfies TcfStrings;
