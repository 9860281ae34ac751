import { createRouter } from "../lib/router";

export const requestRoutes = createRouter();
