import { sql } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { compiled } from "../lib/compiled";
import { newId } from "../lib/ids";
import { logger } from "../lib/logger";
import { now } from "../lib/time";
import { sendOpsEvent, opsWebhookConfigured } from "../ops/notify";
import { ApiError } from "../lib/errors";
import { accountsDb, ensureOrganization } from "../auth/operators";
import { isStateRead } from "../auth/audit";
import { mailSignInLink } from "./sign-in";
import { members, organizations } from "./table";

/**
 * The first owner, made by the admin token's first sign-in that names an address (or `POST /admin/v1/bootstrap`):
 * only while the organization has no member, so the token cannot mint owners afterwards. Null when one exists.
 */
export async function createFirstOwner(c: Context<AppEnv>, organizationId: string, email: string, name?: string): Promise<string | null> {
  const id = newId("mbr");
  const [inserted] = await accountsDb(c).all<{ id: string }>(sql`INSERT INTO ${members} (id, organization_id, email, name, role, created, accepted)
      SELECT ${id}, ${organizationId}, ${email.toLowerCase()}, ${name ?? null}, 'owner', ${now()}, ${now()}
      WHERE NOT EXISTS (SELECT 1 FROM ${members} WHERE organization_id = ${organizationId})
      AND NOT EXISTS (SELECT 1 FROM ${members} WHERE email = ${email.toLowerCase()}) RETURNING id`);
  return inserted?.id ?? null;
}

/** Whether the organization has a member yet, compiled once per isolate: every change made on the admin token asks. */
const anyMember = compiled<"organizationId">((p) => sql`SELECT 1 FROM ${members} WHERE ${members.organizationId} = ${p.organizationId} LIMIT 1`);

/**
 * Once an organization has a member, the admin token is the break-glass credential: each use is in the audit trail
 * (as every operator action is) and raises `ops.alert` (rule `break_glass`) to the operator's webhook, after the answer.
 */
export async function raiseBreakGlass(c: Context<AppEnv>, organizationId: string, operationId: string) {
  const member = await anyMember(c.var.databases.named("DB"), { organizationId }).first();
  if (!member) return;
  logger.warn("break-glass admin token used", { rule: "break_glass", route: operationId });
  if (!opsWebhookConfigured(c.env)) return;
  const at = now();
  const event = {
    id: newId("evt"),
    type: "ops.alert" as const,
    created: at,
    data: { rule: "break_glass", status: "firing", operationId, organizationId, since: at, runbook: "docs/security.md#the-admin-token-break-glass" },
  };
  c.executionCtx.waitUntil(
    sendOpsEvent(c.env, event).catch((error: unknown) => logger.error("break-glass alert not sent", { rule: "break_glass" }, error)),
  );
}

/** Another organization with its owner, invited by mail; 409 when the address is already a member anywhere. */
export async function createOrganization(c: Context<AppEnv>, name: string, ownerEmail: string) {
  await ensureOrganization(c);
  const email = ownerEmail.toLowerCase();
  const organizationId = newId("org");
  const ownerId = newId("mbr");
  const db = accountsDb(c);
  const [taken] = await db.select({ id: members.id }).from(members).where(sql`${members.email} = ${email}`).limit(1);
  if (taken) throw new ApiError(409, "member_exists", "That address is already a member of an organization.");
  const created = now();
  await db.batch([
    db.insert(organizations).values({ id: organizationId, name, created }),
    db.insert(members).values({ id: ownerId, organizationId, email, name: null, role: "owner", created }),
  ]);
  await mailSignInLink(c, { id: ownerId, email, organizationId }, "invitation");
  return { organizationId, ownerId };
}

/** After the answer: the break-glass alert for a call the access check let in on the admin token (worker/auth/authorize.ts). */
export const breakGlassAlerts: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const route = c.var.breakGlass;
  if (route && c.var.operator && !isStateRead(c)) await raiseBreakGlass(c, c.var.operator.organizationId, route);
};
