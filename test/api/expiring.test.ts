// Operator data that moved out of KV (docs/operations-data.md#what-is-stored-where) carries its own end: refused on
// read once past it, and deleted by the cron's run after it.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../worker/lib/crypto";
import { runCron } from "./cron";
import { adminToken, call, expectProblem, origin } from "./helpers";

const minute = 60_000;
const at = (offset: number) => new Date(Date.now() + offset).toISOString();

async function signIn() {
  const reply = await call("POST", "/portal/api/session", { body: { adminToken }, headers: { origin } });
  expect(reply.status).toBe(201);
  const cookie = /^(__Host-assent_portal=([^;]+))/.exec(reply.headers.get("set-cookie") ?? "")!;
  return { cookie: cookie[1], idHash: await sha256Hex(cookie[2]) };
}

const session = (cookie: string) => call("GET", "/portal/api/session", { headers: { cookie } });
const present = async (sql: string, key: string) => (await env.DB.prepare(sql).bind(key).first()) !== null;

describe("expiring operator data", () => {
  it("the cron deletes portal sessions, kept billing answers and address blocks once past their end, and keeps the rest", async () => {
    const ended = await signIn();
    const current = await signIn();
    const suffix = crypto.randomUUID();
    await env.DB.batch([
      env.DB.prepare("UPDATE portal_sessions SET expires = ? WHERE id_hash = ?").bind(at(-minute), ended.idHash),
      env.DB.prepare("INSERT INTO billing_lookups (billing_account, result, until) VALUES (?, NULL, ?), (?, NULL, ?)").bind(`gone-${suffix}`, at(-minute), `kept-${suffix}`, at(minute)),
      env.DB.prepare("INSERT INTO address_blocks (limiter, address_hash, until) VALUES ('ADMIN_FAILURES_LIMITER', ?, ?), ('ADMIN_FAILURES_LIMITER', ?, ?)").bind(`gone-${suffix}`, at(-minute), `kept-${suffix}`, at(minute)),
    ]);
    // Past its end a session is refused at once, before the cron has run.
    expectProblem(await session(ended.cookie), 401, "unauthorized");

    await runCron();

    const sessionRow = "SELECT 1 FROM portal_sessions WHERE id_hash = ?";
    const lookupRow = "SELECT 1 FROM billing_lookups WHERE billing_account = ?";
    const blockRow = "SELECT 1 FROM address_blocks WHERE address_hash = ?";
    expect(await Promise.all([present(sessionRow, ended.idHash), present(lookupRow, `gone-${suffix}`), present(blockRow, `gone-${suffix}`)])).toEqual([false, false, false]);
    expect(await Promise.all([present(sessionRow, current.idHash), present(lookupRow, `kept-${suffix}`), present(blockRow, `kept-${suffix}`)])).toEqual([true, true, true]);
    expect((await session(current.cookie)).status).toBe(200);
  });
});
