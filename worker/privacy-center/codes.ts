import { and, desc, eq, sql } from "drizzle-orm";
import { logger } from "../lib/logger";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { committerOf } from "../events/commit";
import { normalAlias } from "../identities/normalise";
import { aliases } from "../identities/table";
import { base64url, randomSecret, sha256Hex } from "../lib/crypto";
import { atomically, getDb } from "../lib/db";
import { ApiError, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { limitRate } from "../limits/rate-limits";
import { admit, clientHashOf, countCode, countWrongCode, type Asker } from "./guard";
import { logAppend } from "../proof/log";
import { channelRules } from "./channels";
import { readSettings, type Settings } from "./settings";
import { verificationCodes, verifications, type Channel } from "./table";
import { acceptedLanguages, wordsIn } from "./words";

/**
 * One-time codes: 6 digits, 10 minutes, 5 attempts, hashed at rest. Asking for a code does the same work whether or
 * not the address names anyone (it never looks the address up), so neither the answer nor its timing tells; only a
 * person who proves holding the address learns which identity it names. Delivery runs after the answer.
 */
export const codeDigits = 6;
export const codeLifetimeMs = 10 * 60_000;
export const maxAttempts = 5;
/** How long a verification lets the person act on the privacy center. */
export const sessionLifetimeMs = 30 * 60_000;
const dayMs = 24 * 60 * 60_000;
/** Codes of one address tried at once: one per client budget, well above what a person has open. */
const maxOpenCodes = 10;

const addressHash = (projectId: string, channel: Channel, address: string) => sha256Hex(`${projectId}\n${channel}\n${address}`);
const codeHash = (salt: string, code: string) => sha256Hex(`${salt}\n${code}`);

/** A uniformly random code of `codeDigits` digits (rejection sampling: no digit is likelier than another). */
function newCode(): string {
  const range = 10 ** codeDigits;
  const limit = Math.floor(0x1_0000_0000 / range) * range;
  for (;;) {
    const [value] = crypto.getRandomValues(new Uint32Array(1));
    if (value < limit) return String(value % range).padStart(codeDigits, "0");
  }
}

/** The channel's settings, or 422 when the project has not switched it on. */
function channelSetting(settings: Settings, channel: Channel) {
  const setting = settings.channels[channel];
  if (!setting) {
    throw new ApiError(422, "channel_off", `This project does not verify people by ${channelRules[channel].label}.`, {
      members: { enabled: Object.keys(settings.channels) },
    });
  }
  return setting;
}

async function projectSettings(c: Context<AppEnv>, projectId: string) {
  const found = await readSettings(c.var.db, projectId);
  if (!found) throw notFound("Project");
  return found;
}

/** What a caller of the two doors brings: the address as its channel normalised it, and a Turnstile token if any. */
export type CodeAsk = { channel: Channel; address: string; challenge?: string };

async function askerOf(c: Context<AppEnv>, projectId: string, { channel, address, challenge }: CodeAsk): Promise<Asker> {
  return { projectId, addressHash: await addressHash(projectId, channel, address), clientHash: await clientHashOf(c), challenge };
}

/** Sends a new code to the address; this client's earlier unspent code for it stops working, anyone else's not. */
export async function requestCode(c: Context<AppEnv>, projectId: string, ask: CodeAsk) {
  const { channel, address } = ask;
  await limitRate(c, "PRIVACY_CENTER_IP_LIMITER");
  const { project, settings } = await projectSettings(c, projectId);
  channelSetting(settings, channel);
  const asker = await askerOf(c, projectId, ask);
  await admit(c, "codes", asker);
  await channelRules[channel].admit?.(c, projectId, address, { settings, rules: project.jurisdictionRules });
  await countCode(c, asker);
  const code = newCode();
  const salt = base64url(crypto.getRandomValues(new Uint8Array(16)));
  const created = Date.now();
  const db = getDb(c.var.db);
  await atomically(c.var.db, [
    db
      .update(verificationCodes)
      .set({ spent: new Date(created).toISOString() })
      .where(
        and(
          eq(verificationCodes.projectId, projectId),
          eq(verificationCodes.addressHash, asker.addressHash),
          eq(verificationCodes.clientHash, asker.clientHash),
          sql`${verificationCodes.spent} IS NULL`,
        ),
      ),
    db.insert(verificationCodes).values({
      id: newId("vcd"),
      projectId,
      channel,
      addressHash: asker.addressHash,
      clientHash: asker.clientHash,
      salt,
      codeHash: await codeHash(salt, code),
      expires: new Date(created + codeLifetimeMs).toISOString(),
      created: new Date(created).toISOString(),
    }),
  ]);
  const { strings } = wordsIn(acceptedLanguages(c.req.header("accept-language")));
  const projectName = project.controller?.name ?? project.name;
  const delivery = channelRules[channel].deliver(committerOf(c), { projectId, to: address, code, projectName, strings });
  c.executionCtx.waitUntil(delivery.catch((error) => logger.error("privacy_center_code_delivery_failed", { projectId }, error)));
  return { channel, expiresIn: codeLifetimeMs / 1000, codeLength: codeDigits };
}

const refusal = (status: 400 | 409 | 410 | 429, code: string, detail: string, members: Record<string, unknown> = {}) =>
  new ApiError(status, code, detail, { members });

/**
 * Checks a code: right, it is spent and a verification (and the person's session) is recorded with its log entry, in
 * one batch guarded by the spend, so a code verifies once however many tries race. Wrong, one attempt is used up.
 */
export async function verifyCode(c: Context<AppEnv>, projectId: string, ask: CodeAsk & { code: string }) {
  const { channel, address, code } = ask;
  await limitRate(c, "PRIVACY_CENTER_IP_LIMITER");
  const { project, settings } = await projectSettings(c, projectId);
  const { aliasType } = channelSetting(settings, channel);
  const asker = await askerOf(c, projectId, ask);
  await admit(c, "verifications", asker);
  const hashed = asker.addressHash;
  const db = getDb(c.var.db);
  const nowMs = Date.now();
  const at = new Date(nowMs).toISOString();
  // The address's codes still open (any client's: a person's address may change between asking and typing), and
  // the newest this client asked for, which answers for a wrong code.
  const [open, [own], [newest], [alias]] = await db.batch([
    db
      .select()
      .from(verificationCodes)
      .where(
        and(
          eq(verificationCodes.projectId, projectId),
          eq(verificationCodes.addressHash, hashed),
          sql`${verificationCodes.spent} IS NULL`,
          sql`${verificationCodes.attempts} < ${maxAttempts}`,
          sql`${verificationCodes.expires} > ${at}`,
        ),
      )
      .orderBy(desc(verificationCodes.created))
      .limit(maxOpenCodes),
    db
      .select()
      .from(verificationCodes)
      .where(and(eq(verificationCodes.projectId, projectId), eq(verificationCodes.addressHash, hashed), eq(verificationCodes.clientHash, asker.clientHash)))
      .orderBy(desc(verificationCodes.created))
      .limit(1),
    db
      .select()
      .from(verificationCodes)
      .where(and(eq(verificationCodes.projectId, projectId), eq(verificationCodes.addressHash, hashed)))
      .orderBy(desc(verificationCodes.created))
      .limit(1),
    db
      .select({ identityId: aliases.identityId })
      .from(aliases)
      .where(and(eq(aliases.projectId, projectId), eq(aliases.type, aliasType), sql`coalesce(${aliases.normalized}, ${aliases.identifier}) = ${normalAlias(aliasType, address)}`))
      .limit(1),
  ]);
  let matched: (typeof open)[number] | undefined;
  for (const candidate of open) if ((await codeHash(candidate.salt, code)) === candidate.codeHash) matched ??= candidate;
  if (!matched) return wrongCode(c, asker, own ?? newest, { channel, address, projectName: project.controller?.name ?? project.name });
  const verificationId = newId("vrf");
  const token = randomSecret("apc");
  const identityId = alias?.identityId ?? null;
  const spentNow = sql`EXISTS (SELECT 1 FROM ${verificationCodes} WHERE ${verificationCodes.id} = ${matched.id} AND ${verificationCodes.spent} = ${at})`;
  const results = await atomically(c.var.db, [
    db
      .update(verificationCodes)
      .set({ attempts: sql`${verificationCodes.attempts} + 1`, spent: at })
      .where(
        and(
          eq(verificationCodes.id, matched.id),
          sql`${verificationCodes.spent} IS NULL`,
          sql`${verificationCodes.attempts} < ${maxAttempts}`,
          sql`${verificationCodes.expires} > ${at}`,
        ),
      )
      .returning({ attempts: verificationCodes.attempts }),
    sql`INSERT INTO ${verifications} (id, project_id, channel, identity_id, token_hash, verified_at, expires, purge_after)
      SELECT ${verificationId}, ${projectId}, ${channel}, ${identityId}, ${await sha256Hex(token)}, ${at},
        ${new Date(nowMs + sessionLifetimeMs).toISOString()}, ${new Date(nowMs + settings.retentionDays * dayMs).toISOString()}
      WHERE ${spentNow}`,
    await logAppend(
      { kind: "verification.succeeded", projectId, ...(identityId ? { identityId } : {}), verificationId, method: channel, at },
      spentNow,
    ),
  ]);
  if (results[0].results.length === 0) throw refusal(409, "code_used", "This code was used meanwhile; ask for a new code.");
  return { sessionToken: token, expiresIn: sessionLifetimeMs / 1000, verification: { id: verificationId, method: channel, verifiedAt: at } };
}

/**
 * A code none of the address's open codes matches. It uses up an attempt of this client's own code only (never a
 * code someone else asked for) and counts against the address's and the client's daily guesses; the wrong code that
 * reaches the address's cap tells the person, by the channel itself, that their address is being tried.
 */
async function wrongCode(
  c: Context<AppEnv>,
  asker: Asker,
  reference: typeof verificationCodes.$inferSelect | undefined,
  notice: { channel: Channel; address: string; projectName: string },
): Promise<never> {
  if (await countWrongCode(c, asker)) {
    const { strings } = wordsIn(acceptedLanguages(c.req.header("accept-language")));
    const warning = channelRules[notice.channel].warn(committerOf(c), { projectId: asker.projectId, to: notice.address, projectName: notice.projectName, strings });
    c.executionCtx.waitUntil(warning.catch((error) => logger.error("privacy_center_warning_failed", { projectId: asker.projectId }, error)));
  }
  if (!reference) throw refusal(400, "invalid_code", "The code is not right. Ask for a new code if you have none.");
  const at = new Date().toISOString();
  if (reference.spent) throw refusal(409, "code_used", "This code was already used or replaced by a newer one; ask for a new code.");
  if (reference.expires <= at) throw refusal(410, "code_expired", "This code has expired (codes live 10 minutes); ask for a new code.");
  if (reference.attempts >= maxAttempts) throw refusal(429, "code_attempts_exhausted", "Too many wrong codes; ask for a new code.");
  const ownCode = reference.clientHash === asker.clientHash;
  const [attempted] = ownCode
    ? await getDb(c.var.db)
        .update(verificationCodes)
        .set({ attempts: sql`${verificationCodes.attempts} + 1` })
        .where(and(eq(verificationCodes.id, reference.id), sql`${verificationCodes.spent} IS NULL`, sql`${verificationCodes.attempts} < ${maxAttempts}`))
        .returning({ attempts: verificationCodes.attempts })
    : [];
  if (ownCode && !attempted) throw refusal(409, "code_used", "This code was used meanwhile; ask for a new code.");
  const left = attempted ? maxAttempts - attempted.attempts : undefined;
  throw refusal(
    400,
    "invalid_code",
    left === undefined ? "The code is not right." : left > 0 ? `The code is not right; ${left} attempts left.` : "The code is not right, and no attempts are left; ask for a new code.",
    left === undefined ? {} : { attemptsLeft: left },
  );
}
