import { sql } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { newId } from "../lib/ids";
import { logger } from "../lib/logger";
import { now } from "../lib/time";
import { sendOpsEvent, opsWebhookConfigured } from "../ops/notify";
import { projects } from "../projects/table";
import { atomically, getDb } from "../lib/db";
import { ApiError } from "../lib/errors";
import { accountsDb, firstOrganization } from "./operators";
import { mailSignInLink } from "./sign-in";
import { members, organizationProjects, organizations } from "./table";

/**
 * `ADMIN_TOKEN` as the bootstrap (docs/security.md#the-admin-token-break-glass). Its first use on a deployment without
 * an organization creates one and moves every existing project into it (all databases), in one batch on `DB`
 * guarded so that two first uses at once make one organization. Projects created later by the token join the first
 * organization too.
 */
export async function ensureOrganization(c: Context<AppEnv>): Promise<string> {
  const [found] = await firstOrganization(c);
  if (found) return found.id;
  const perDatabase = await Promise.all(c.var.databases.every().map((d1) => getDb(d1).select({ id: projects.id }).from(projects)));
  const projectIds = JSON.stringify(perDatabase.flat().map((row) => row.id));
  const id = newId("org");
  await atomically(c.var.databases.named("DB"), [
    sql`INSERT INTO ${organizations} (id, name, created)
      SELECT ${id}, 'Organization', ${now()} WHERE NOT EXISTS (SELECT 1 FROM ${organizations})`,
    sql`INSERT OR IGNORE INTO ${organizationProjects} (project_id, organization_id)
      SELECT value, (SELECT id FROM ${organizations} ORDER BY created, id LIMIT 1) FROM json_each(${projectIds})`,
  ]);
  const [made] = await firstOrganization(c);
  return made!.id;
}

/**
 * The first owner, made by the admin token's first sign-in that names an address (or `POST /admin/v1/bootstrap`):
 * only while the organization has no member, so the token cannot mint owners afterwards. Null when one exists.
 */
export async function createFirstOwner(c: Context<AppEnv>, organizationId: string, email: string, name?: string): Promise<string | null> {
  const id = newId("mbr");
  const [inserted] = await accountsDb(c).all<{ id: string }>(sql`INSERT INTO ${members} (id, organization_id, email, name, role, created)
      SELECT ${id}, ${organizationId}, ${email.toLowerCase()}, ${name ?? null}, 'owner', ${now()}
      WHERE NOT EXISTS (SELECT 1 FROM ${members} WHERE organization_id = ${organizationId})
      AND NOT EXISTS (SELECT 1 FROM ${members} WHERE email = ${email.toLowerCase()}) RETURNING id`);
  return inserted?.id ?? null;
}

/**
 * Once an organization has a member, the admin token is the break-glass credential: each use is in the audit trail
 * (as every operator action is) and raises `ops.alert` (rule `break_glass`) to the operator's webhook, after the answer.
 */
export async function raiseBreakGlass(c: Context<AppEnv>, organizationId: string, operationId: string) {
  const [member] = await accountsDb(c).select({ id: members.id }).from(members).where(sql`${members.organizationId} = ${organizationId}`).limit(1);
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
