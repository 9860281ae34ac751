import type { Context } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";
import { createSession, isAdminToken, type PortalSession } from "../auth/portal-session";
import { recordAudit } from "../auth/audit";
import { ensureOrganization } from "../auth/operators";
import { createFirstOwner, raiseBreakGlass } from "./bootstrap";
import { memberOperator, type Operator } from "../auth/operators";
import { redeemSignInLink } from "./sign-in";

const unauthorized = (detail: string) => new ApiError(401, "unauthorized", detail);

/**
 * The admin token's sign-in: on a deployment without members, naming an address makes it the first owner's session;
 * otherwise a break-glass session (an owner of the first organization, ended by rotating the token), raising `ops.alert`.
 */
export async function signInWithAdminToken(c: Context<AppEnv>, body: { adminToken: string; email?: string; name?: string }): Promise<PortalSession> {
  if (!(await isAdminToken(c, body.adminToken))) throw unauthorized("That is not the admin token.");
  const organizationId = await ensureOrganization(c);
  const ownerId = body.email === undefined ? null : await createFirstOwner(c, organizationId, body.email, body.name);
  const operator: Operator = { memberId: ownerId, organizationId, role: "owner", credential: "admin-token" };
  if (ownerId === null) await raiseBreakGlass(c, organizationId, "signIn");
  await recordAudit(c, operator, { operationId: "signIn", status: 201, projectId: null });
  return createSession(c, ownerId, "admin-token");
}

/** A one-time link's sign-in: 401 when the link is unknown, spent or expired (which of them is not said). */
export async function signInWithLink(c: Context<AppEnv>, link: string): Promise<PortalSession> {
  const memberId = await redeemSignInLink(c, link);
  const operator = memberId === null ? null : await memberOperator(c, memberId, "email-link");
  if (!operator) throw unauthorized("That sign-in link is not valid: it was used, has expired, or never was one. Ask for a new one.");
  await recordAudit(c, operator, { operationId: "signIn", status: 201, projectId: null });
  return createSession(c, memberId, "email-link");
}
