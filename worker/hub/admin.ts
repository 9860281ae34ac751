import { billingAdminRoutes } from "./admin-billing";
import { outboxAdminRoutes } from "./admin-outbox";
import { senderAdminRoutes } from "./admin-senders";
import { createRouter } from "../lib/router";

/** The hub's admin API (admin token): the outbox and routes, billing accounts, and who may send. */
export const hubAdminRoutes = createRouter();

for (const routes of [outboxAdminRoutes, billingAdminRoutes, senderAdminRoutes]) hubAdminRoutes.route("/", routes);
