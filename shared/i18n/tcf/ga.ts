// Irish.
import type { TcfStrings } from "../tcf";
export default {
  vendorCount: "Stórálaimid féin agus ár ndíoltóirí ({c}) faisnéis ar ghléas agus/nó faighimid rochtain uirthi, agus próiseálaimid sonraí pearsanta chun na gcuspóirí thíos.",
  objectNote: "Próiseálann roinnt díoltóirí sonraí pearsanta ar bhonn a leasa dhlisteanaigh, agus is féidir leat agóid a dhéanamh ina choinne faoi “Saincheap”.",
  vendorList: "Liosta díoltóirí",
  retention: "coinnithe ar feadh {c} lá",
  features: "Cuspóirí speisialta agus gnéithe",
} satisfies TcfStrings;
