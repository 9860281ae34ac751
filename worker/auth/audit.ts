import { and, desc, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import type { Context } from "hono";
import type { Scope } from "./scopes";
import type { AppEnv } from "../env";
import { canonicalJson } from "../lib/canonical";
import { sha256Hex } from "../lib/crypto";
import { clientIp } from "../limits/rate-limits";
import { now } from "../lib/time";
import type { CredentialKind } from "../accounts/table";
import { accountsDb, type Operator } from "./operators";
import type { Role } from "./roles";
import { auditEntries } from "../accounts/table";

/** What an audit entry commits to; its SHA-256 over canonical JSON is the entry hash, and it names the one before. */
export type AuditPayload = {
  organizationId: string;
  memberId: string | null;
  role: Role;
  credential: CredentialKind;
  operationId: string;
  method: string;
  /** The object acted on: the request's path, its ids included. */
  object: string;
  projectId: string | null;
  /** The answer's status: 2xx done, 403/404 refused (an escalation attempt shows here). */
  status: number;
  address: string;
  /** For a change of configuration: what it was (where the route says so) and what the request set. */
  before?: unknown;
  after?: unknown;
  previous: string | null;
  at: string;
};

/** Scopes whose reads disclose personal data: every call holding one is in the audit trail, reads included. */
export const personalDataScopes: readonly Scope[] = ["identities:read", "identities:export", "requests:read", "audit:read"];

/** Scopes that change configuration: the entry keeps what the request set (`after`). */
const configurationScopes: readonly Scope[] = ["config:write", "projects:write", "blocking:write", "members:manage", "clients:manage", "webhooks:manage"];

const unsafe = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Whether a call is audited: every change, every read of personal data, and every refusal of an operator. */
export const audited = (method: string, needed: readonly Scope[], status: number) =>
  unsafe.has(method) || needed.some((scope) => personalDataScopes.includes(scope)) || status === 403 || status === 404;

/** Appends entries of one organization one at a time within the isolate, so each names the one before it. */
const tails = new Map<string, Promise<unknown>>();

const attempts = 5;

async function append(c: Context<AppEnv>, payload: Omit<AuditPayload, "previous">): Promise<void> {
  const db = accountsDb(c);
  const latest = sql<string | null>`(SELECT ${auditEntries.entryHash} FROM ${auditEntries}
    WHERE ${auditEntries.organizationId} = ${payload.organizationId} ORDER BY ${auditEntries.seq} DESC LIMIT 1)`;
  for (let attempt = 1; ; attempt++) {
    const previous = (await db.get<{ hash: string | null }>(sql`SELECT ${latest} AS hash`))?.hash ?? null;
    const full: AuditPayload = { ...payload, previous };
    const text = canonicalJson(full);
    const entryHash = await sha256Hex(text);
    // Another isolate may have appended since the read: the guard then inserts nothing, and the entry is made again.
    const result = await db.run(sql`INSERT OR IGNORE INTO ${auditEntries}
      (organization_id, member_id, project_id, operation_id, object, entry_hash, previous_hash, payload, created)
      SELECT ${payload.organizationId}, ${payload.memberId}, ${payload.projectId}, ${payload.operationId}, ${payload.object},
        ${entryHash}, ${previous}, ${text}, ${payload.at} WHERE ${latest} IS ${previous}`);
    if (result.meta.changes > 0 || attempt === attempts) return;
  }
}

/** Records one operator action in the organization's audit trail. */
export function recordAudit(
  c: Context<AppEnv>,
  operator: Operator,
  call: { operationId: string; status: number; projectId: string | null; before?: unknown; after?: unknown },
): Promise<void> {
  const payload: Omit<AuditPayload, "previous"> = {
    organizationId: operator.organizationId,
    memberId: operator.memberId,
    role: operator.role,
    credential: operator.credential,
    operationId: call.operationId,
    method: c.req.method,
    object: new URL(c.req.url).pathname,
    projectId: call.projectId,
    status: call.status,
    address: clientIp(c),
    ...(call.before === undefined ? {} : { before: call.before }),
    ...(call.after === undefined ? {} : { after: call.after }),
    at: now(),
  };
  const key = operator.organizationId;
  const run = (tails.get(key) ?? Promise.resolve()).catch(() => undefined).then(() => append(c, payload));
  tails.set(key, run);
  return run.finally(() => {
    if (tails.get(key) === run) tails.delete(key);
  });
}

/** Whether the configuration change's body is kept with the entry. */
export const keepsAfter = (method: string, needed: readonly Scope[]) =>
  method !== "DELETE" && unsafe.has(method) && needed.some((scope) => configurationScopes.includes(scope));

export type AuditFilter = { organizationId: string; member?: string; object?: string; from?: string; to?: string; limit: number; before?: number };

/** The organization's entries, newest first, filtered by member, object (a path prefix) and time. */
export function auditQuery(c: Context<AppEnv>, filter: AuditFilter) {
  const conditions: (SQL | undefined)[] = [
    eq(auditEntries.organizationId, filter.organizationId),
    filter.member === undefined ? undefined : eq(auditEntries.memberId, filter.member),
    filter.object === undefined ? undefined : sql`substr(${auditEntries.object}, 1, ${filter.object.length}) = ${filter.object}`,
    filter.from === undefined ? undefined : gte(auditEntries.created, filter.from),
    filter.to === undefined ? undefined : lte(auditEntries.created, filter.to),
    filter.before === undefined ? undefined : sql`${auditEntries.seq} < ${filter.before}`,
  ];
  return accountsDb(c)
    .select({ seq: auditEntries.seq, entryHash: auditEntries.entryHash, payload: auditEntries.payload })
    .from(auditEntries)
    .where(and(...conditions))
    .orderBy(desc(auditEntries.seq))
    .limit(filter.limit);
}
