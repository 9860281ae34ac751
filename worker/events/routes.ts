import { createRouter } from "../lib/router";

export const eventRoutes = createRouter();
