import { eq, inArray } from "drizzle-orm";
import { getDb } from "../lib/db";
import { providerUsers, smsClients, smsSenderBlacklist } from "./table";

export const normalizeSender = (sender: string) => sender.trim().toLowerCase();

/** What decides whether a client may send: its SMS registration, blacklisted senders, the named provider user. */
export async function smsAccess(d1: D1Database, clientId: string, senders: string[], username?: string) {
  const db = getDb(d1);
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
