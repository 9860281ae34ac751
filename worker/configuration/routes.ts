import { createRouter } from "../lib/router";

export const configurationRoutes = createRouter();
