import { eq, inArray } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import type { AppEnv, Env } from "../env";
import { getDb } from "../lib/db";
import { ApiError } from "../lib/errors";
import { providerUsers, smsClients, smsSenderBlacklist } from "./table";

/**
 * The hub is for servers: only backend clients, and never a token scoped to one data subject (browser tokens
 * carry an identity). Runs before validation, so a refused caller learns nothing about payloads.
 */
export const backendOnly = createMiddleware<AppEnv>(async (c, next) => {
  const caller = c.get("caller");
  if (caller.clientType !== "backend" || caller.identityId !== undefined) {
    throw new ApiError(403, "backend_client_required", "The hub endpoints accept tokens of backend clients only.");
  }
  await next();
});

export const normalizeSender = (sender: string) => sender.trim().toLowerCase();

/** What decides whether a client may send: its SMS registration, blacklisted senders, the named provider user. */
export async function smsAccess(env: Env, clientId: string, senders: string[], username?: string) {
  const db = getDb(env.DB);
  const [registered, blocked, users] = await db.batch([
    db.select({ clientId: smsClients.clientId }).from(smsClients).where(eq(smsClients.clientId, clientId)).limit(1),
    db
      .select({ sender: smsSenderBlacklist.sender })
      .from(smsSenderBlacklist)
      .where(inArray(smsSenderBlacklist.sender, senders.map(normalizeSender))),
    db
      .select({ passwordHash: providerUsers.passwordHash })
      .from(providerUsers)
      .where(eq(providerUsers.username, username ?? ""))
      .limit(1),
  ]);
  const blockedSet = new Set(blocked.map((row) => row.sender));
  return {
    registered: registered.length > 0,
    isBlacklisted: (sender: string) => blockedSet.has(normalizeSender(sender)),
    passwordHash: users[0]?.passwordHash ?? null,
  };
}
