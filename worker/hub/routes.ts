import { createRouter } from "../lib/router";

export const hubRoutes = createRouter();
