import { createRouter } from "../lib/router";
import { dataGroupRoutes } from "./data-groups";
import { configurationFeedRoutes } from "./feed";
import { purposeRoutes } from "./purposes";

export { unknownReferenceProblem } from "./route-parts";

/** The configuration API: data groups, purposes with their versions, and the consent dialog's feed. */
export const configurationRoutes = createRouter()
  .route("/", dataGroupRoutes)
  .route("/", purposeRoutes)
  .route("/", configurationFeedRoutes);
