import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Every email the service sends. With no provider configured (local development, tests) the row is where the mail
 * ends: `subject` and `text` keep it so it can be read (`GET /admin/v1/email-outbox`), for a day (the retention,
 * worker/retention/jobs.ts). Through a provider neither is kept (the body holds a one-time code), only the outcome.
 */
export const emailOutbox = sqliteTable(
  "email_outbox",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    to: text("to").notNull(),
    subject: text("subject"),
    text: text("text"),
    /** `captured` (no provider), `sent`, or `failed`. */
    status: text("status", { enum: ["captured", "sent", "failed"] }).notNull(),
    error: text("error"),
    created: text("created").notNull(),
  },
  (t) => [index("email_outbox_to_idx").on(t.projectId, t.to, t.created), index("email_outbox_status_idx").on(t.status, t.created)],
);
