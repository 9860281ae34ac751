import { and, desc, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import type { Context } from "hono";
import type { Scope } from "./scopes";
import type { AppEnv } from "../env";
import { canonicalJson } from "../lib/canonical";
import { compiled } from "../lib/compiled";
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
  /** For a change of configuration: what a read of the object answered just before it (absent: nothing to read). */
  before?: unknown;
  /** For a change of configuration: what the request set. */
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

/** The organization's latest entry hash: the one a new entry names, and the guard of its insert. */
const latestHash = (organizationId: unknown) => sql<string | null>`(SELECT ${auditEntries.entryHash} FROM ${auditEntries}
    WHERE ${auditEntries.organizationId} = ${organizationId} ORDER BY ${auditEntries.seq} DESC LIMIT 1)`;

/** Both statements of an append, compiled once per isolate: every audited call of a member writes one. */
const readLatest = compiled<"organizationId">((p) => sql`SELECT ${latestHash(p.organizationId)} AS hash`);
const insertEntry = compiled<"organizationId" | "memberId" | "projectId" | "operationId" | "object" | "entryHash" | "previous" | "text" | "at">(
  (p) => sql`INSERT OR IGNORE INTO ${auditEntries}
      (organization_id, member_id, project_id, operation_id, object, entry_hash, previous_hash, payload, created)
      SELECT ${p.organizationId}, ${p.memberId}, ${p.projectId}, ${p.operationId}, ${p.object},
        ${p.entryHash}, ${p.previous}, ${p.text}, ${p.at} WHERE ${latestHash(p.organizationId)} IS ${p.previous}`,
);

async function append(c: Context<AppEnv>, payload: Omit<AuditPayload, "previous">): Promise<void> {
  const d1 = c.var.databases.named("DB");
  const { organizationId } = payload;
  for (let attempt = 1; ; attempt++) {
    const previous = (await readLatest(d1, { organizationId }).first<{ hash: string | null }>())?.hash ?? null;
    const full: AuditPayload = { ...payload, previous };
    const text = canonicalJson(full);
    const entryHash = await sha256Hex(text);
    // Another isolate may have appended since the read: the guard then inserts nothing, and the entry is made again.
    const result = await insertEntry(d1, {
      organizationId, memberId: payload.memberId, projectId: payload.projectId, operationId: payload.operationId,
      object: payload.object, entryHash, previous, text, at: payload.at,
    }).run();
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
export const keepsAfter = (method: string, needed: readonly Scope[]) => method !== "DELETE" && keepsBefore(method, needed);

/** Whether the object's state before a change is kept with the entry: every change of configuration, deletions too. */
export const keepsBefore = (method: string, needed: readonly Scope[]) =>
  unsafe.has(method) && needed.some((scope) => configurationScopes.includes(scope));

type AppFetch = (request: Request, env: AppEnv["Bindings"], ctx: Context<AppEnv>["executionCtx"]) => Response | Promise<Response>;

/** The app itself (worker/app.ts sets it), so a change's `before` is what the object's own read route answers. */
let appFetch: AppFetch | undefined;
export const readStateThrough = (fetch: AppFetch) => {
  appFetch = fetch;
};

/** The reads made for `before`: neither audited themselves nor alerting as break-glass uses. */
const stateReads = new WeakSet<Request>();
export const isStateRead = (c: Context<AppEnv>) => stateReads.has(c.req.raw);

/**
 * The object's state before a change: GET on the same path with the caller's own credentials, so it shows only what
 * the caller may read. Undefined where the path has no read route or the object does not exist yet.
 */
export async function stateBefore(c: Context<AppEnv>): Promise<unknown> {
  if (!appFetch) return undefined;
  const headers = new Headers();
  for (const name of ["authorization", "cookie", "cf-connecting-ip"]) {
    const value = c.req.header(name);
    if (value !== undefined) headers.set(name, value);
  }
  const read = new Request(c.req.url, { method: "GET", headers });
  stateReads.add(read);
  const answer = await appFetch(read, c.env, c.executionCtx);
  if (answer.status !== 200 || !answer.headers.get("content-type")?.includes("json")) return undefined;
  return answer.json();
}

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
