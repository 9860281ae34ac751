import { createRouter } from "../auth/router";
import { deliveryRoutes } from "./deliveries";
import { webhookRoutes } from "./webhooks";

/** Events reach customers through webhooks: subscriptions, and each subscription's delivery log. */
export const eventRoutes = createRouter().route("/", webhookRoutes).route("/", deliveryRoutes);
