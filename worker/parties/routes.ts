import { createRouter } from "../lib/router";

export const partyRoutes = createRouter();
