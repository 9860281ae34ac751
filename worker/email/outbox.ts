import { and, desc, eq } from "drizzle-orm";
import type { Env } from "../env";
import { getDb } from "../lib/db";
import { newId } from "../lib/ids";
import { now } from "../lib/time";
import { emailOutbox } from "./table";

/**
 * Sending email, one home for it. Where it goes is the deployment's choice, in this order:
 * - `SEND_EMAIL`, Cloudflare's `send_email` binding (Email Routing; the sender must be a verified address of the zone);
 * - `EMAIL_API_URL` (+ `EMAIL_API_KEY`): an HTTP email API taking `{from, to, subject, text}` as JSON with a bearer
 *   key, the shape Resend, Postmark's and most relays' simple endpoints accept;
 * - neither: the outbox row is where the mail ends (local development, tests), subject and body kept (a day) so it
 *   can be read.
 * Through a provider the row keeps only the outcome: the mail may hold a one-time code.
 */
export type Email = { projectId: string; to: string; subject: string; text: string };

type Delivery = (env: Env, email: Email, from: string) => Promise<void>;

/** A minimal RFC 5322 message: one text/plain part, UTF-8, the subject as an RFC 2047 encoded word. */
function mime(email: Email, from: string) {
  const subject = `=?UTF-8?B?${btoa(String.fromCharCode(...new TextEncoder().encode(email.subject)))}?=`;
  return [
    `From: ${from}`,
    `To: ${email.to}`,
    `Subject: ${subject}`,
    `Message-ID: <${newId("msg")}@${from.split("@")[1] ?? "assent"}>`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=UTF-8",
    "Content-Transfer-Encoding: 8bit",
    "",
    email.text,
  ].join("\r\n");
}

const sendEmailBinding: Delivery = async (env, email, from) => {
  const { EmailMessage } = await import("cloudflare:email");
  await env.SEND_EMAIL!.send(new EmailMessage(from, email.to, mime(email, from)));
};

const httpApi: Delivery = async (env, email, from) => {
  const answer = await fetch(env.EMAIL_API_URL!, {
    method: "POST",
    headers: { "content-type": "application/json", ...(env.EMAIL_API_KEY ? { authorization: `Bearer ${env.EMAIL_API_KEY}` } : {}) },
    body: JSON.stringify({ from, to: email.to, subject: email.subject, text: email.text }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!answer.ok) throw new Error(`The email API answered ${answer.status}.`);
};

const deliveryOf = (env: Env): Delivery | undefined => (env.SEND_EMAIL ? sendEmailBinding : env.EMAIL_API_URL ? httpApi : undefined);

/** Sends (or captures) one email and records it; a provider's failure is recorded, not thrown. */
export async function sendEmail(env: Env, d1: D1Database, email: Email): Promise<void> {
  const delivery = deliveryOf(env);
  const row = { id: newId("eml"), projectId: email.projectId, to: email.to, created: now() };
  if (!delivery) {
    await getDb(d1).insert(emailOutbox).values({ ...row, subject: email.subject, text: email.text, status: "captured" });
    return;
  }
  let error: string | null = null;
  try {
    await delivery(env, email, env.EMAIL_FROM ?? "privacy@assent.invalid");
  } catch (failure) {
    error = (failure as Error).message;
  }
  await getDb(d1).insert(emailOutbox).values({ ...row, subject: null, text: null, status: error ? "failed" : "sent", error });
}

/** A project's latest emails (to one address, if given), newest first: what the captured outbox shows. */
export const emailsTo = (d1: D1Database, projectId: string, to: string | undefined, limit = 20) =>
  getDb(d1)
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.projectId, projectId), to === undefined ? undefined : eq(emailOutbox.to, to)))
    .orderBy(desc(emailOutbox.created))
    .limit(limit);
