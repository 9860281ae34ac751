import { billingAdminRoutes } from "./admin-billing";
import { outboxAdminRoutes } from "./admin-outbox";
import { senderAdminRoutes } from "./admin-senders";
import { createRouter } from "../auth/router";

/** The hub's admin API (admin token), mounted at `/admin/v1`: the outbox and routes, billing accounts, and who may send. */
export const hubAdminRoutes = createRouter()
  .route("/", outboxAdminRoutes)
  .route("/billing-accounts", billingAdminRoutes)
  .route("/sms", senderAdminRoutes);
