import { z } from "@hono/zod-openapi";
import { access } from "../auth/scopes";
import { createRouter, defineRoute } from "../auth/router";
import { ProjectParams } from "../lib/params";
import { jsonResponse, problems, Timestamp } from "../lib/schemas";
import { emailsTo } from "./outbox";

/** The operator's view of the email outbox, mounted at `/admin/v1/projects/{project_id}/email-outbox`. */
export const emailOutboxRoutes = createRouter();

const Email = z
  .object({
    id: z.string(),
    to: z.string(),
    subject: z.string().nullable().openapi({ description: "Kept only when no provider is configured (captured mail)." }),
    text: z.string().nullable().openapi({ description: "The body, kept only when no provider is configured (captured mail)." }),
    status: z.enum(["captured", "sent", "failed"]),
    error: z.string().nullable(),
    created: Timestamp,
  })
  .openapi("OutboxEmail");

emailOutboxRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "listOutboxEmails",
    tags: ["Admin"],
    ...access.admin,
    summary: "The project's latest emails, or those to one address (the captured outbox locally)",
    description:
      "Newest first, at most 20. Without an email provider (`SEND_EMAIL` or `EMAIL_API_URL`) mail is captured here with " +
      "its subject and body for a day, which is how local development and the tests read one-time codes " +
      "(docs/privacy-center.md#proving-who-you-are). Mail sent through a provider keeps only its outcome.",
    request: { params: ProjectParams, query: z.object({ to: z.string().min(3).max(254).optional() }) },
    responses: { 200: jsonResponse(z.object({ items: z.array(Email) }), "The emails."), ...problems },
  }),
  async (c) => {
    const rows = await emailsTo(c.var.db, c.req.valid("param").project_id, c.req.valid("query").to);
    return c.json({ items: rows.map(({ projectId: _, ...row }) => row) }, 200);
  },
);
