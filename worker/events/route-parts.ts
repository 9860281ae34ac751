import { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { AppEnv } from "../env";
import { getDb } from "../lib/db";
import { badRequest, notFound } from "../lib/errors";
import { loopbackAllowed, webhookUrlProblem } from "../../shared/ssrf";
import { webhooks } from "./table";
import { ProjectParams } from "../lib/params";

/** What the webhook and delivery-log routes share. */
export const tags = ["Webhooks"];
export const WebhookParams = ProjectParams.extend({ webhook_id: z.string() });

export function checkUrl(env: AppEnv["Bindings"], url: string) {
  const problem = webhookUrlProblem(url, loopbackAllowed(env));
  if (problem) throw badRequest("webhook_url_not_allowed", problem, [{ path: "url", message: problem, code: "webhook_url_not_allowed" }]);
}

export async function findWebhook(d1: D1Database, projectId: string, webhookId: string) {
  const row = await getDb(d1)
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.projectId, projectId), eq(webhooks.id, webhookId)))
    .get();
  if (!row) throw notFound("Webhook");
  return row;
}

