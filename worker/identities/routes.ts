import { createRouter } from "../lib/router";

export const identityRoutes = createRouter();
