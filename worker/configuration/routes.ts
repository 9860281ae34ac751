import { createRouter } from "../auth/router";
import { dataGroupRoutes } from "./data-groups";
import { purposeRoutes } from "./purposes";

export { configurationFeedRoutes } from "./feed";

/**
 * The configuration API, mounted at the project's `/configurations`: data groups and purposes with their versions.
 * The consent dialog's feed (`configurationFeedRoutes`) is mounted at `/privacy/v1/configurations`.
 */
export const configurationRoutes = createRouter().route("/data-groups", dataGroupRoutes).route("/purposes", purposeRoutes);
