// The idle-visitor retention job walked every identity older than the period on every run (a minute apart): millions
// of rows read per run on a database with millions of anonymous visitors
// (docs/performance-history.md#retention-without-per-row-scans). Each run now resumes after a watermark kept per job
// and database, and examines a bounded number of identities.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { visitorAliasType } from "../../shared/scan-visitors";
import type { Env } from "../../worker/env";
import { idsFrom } from "../../worker/lib/ids";
import { purgeIdleVisitors } from "../../worker/retention/jobs";
import { newProject } from "./helpers";

const day = 24 * 3600 * 1000;

/**
 * `env.DB` adding up the rows every statement read, from D1's result metadata. `raw` and `first` return none: a
 * SELECT sent through them is re-run through `run` to read its cost, a write is sent through `all` instead.
 */
function rowsReadOn(d1: D1Database) {
  let rowsRead = 0;
  const add = (meta: Partial<D1Meta> | undefined) => void (rowsRead += meta?.rows_read ?? 0);
  const real = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...params: unknown[]) => wrap(target.bind(...params), sql);
        if (property === "all" || property === "run") {
          return async () => {
            const result = await target[property]();
            add(result.meta);
            return result;
          };
        }
        if (property === "first" || property === "raw") {
          return async (...args: unknown[]) => {
            if (/^\s*(SELECT|WITH)/i.test(sql)) {
              add((await target.run()).meta);
              return (target as any)[property](...args);
            }
            const { results, meta } = await target.all<Record<string, unknown>>();
            add(meta);
            if (property === "first") return results[0] ?? null;
            const rows = results.map((row) => Object.values(row));
            const options = args[0] as { columnNames?: boolean } | undefined;
            return options?.columnNames ? [Object.keys(results[0] ?? {}), ...rows] : rows;
          };
        }
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    real.set(proxy, statement);
    return proxy;
  };
  const binding = new Proxy(d1, {
    get(target, property) {
      if (property === "prepare") return (sql: string) => wrap(target.prepare(sql), sql);
      if (property === "batch") {
        return async (list: D1PreparedStatement[]) => {
          const results = await target.batch(list.map((s) => real.get(s) ?? s));
          for (const result of results) add(result.meta);
          return results;
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { env: { ...env, DB: binding } as Env, rowsRead: () => rowsRead };
}

const count = async (sql: string, ...binds: unknown[]) => (await env.DB.prepare(sql).bind(...binds).first<{ n: number }>())!.n;

/** `n` identities of a new project made `ageDays` ago, one millisecond apart up to then; `visitor`: each has only a visitor alias. */
async function identitiesMade(n: number, ageDays: number, visitor: boolean) {
  const { projectId } = await newProject();
  const start = Date.now() - ageDays * day - n;
  const ids = Array.from({ length: n }, (_, i) => `${idsFrom("idn", start + i)}${crypto.randomUUID().replaceAll("-", "").slice(0, 16).toUpperCase()}`);
  const statements = ids.flatMap((id, i) => {
    const created = new Date(start + i).toISOString();
    const identity = env.DB.prepare("INSERT INTO identities (id, project_id, created, updated) VALUES (?1, ?2, ?3, ?3)").bind(id, projectId, created);
    const alias = env.DB.prepare("INSERT INTO aliases (project_id, type, identifier, identity_id) VALUES (?1, ?2, ?3, ?3)").bind(projectId, visitorAliasType, id);
    return visitor ? [identity, alias] : [identity];
  });
  for (let i = 0; i < statements.length; i += 200) await env.DB.batch(statements.slice(i, i + 200));
  return { projectId, ids, start };
}

/** Runs the job as of `asOf` until its watermark stops moving (identities made before may come first). */
async function walkedUpTo(asOf: number) {
  for (let run = 0, last = null as string | null; run < 100; run++) {
    await purgeIdleVisitors(env, asOf, "DB");
    const now = (await watermark())?.watermark ?? null;
    if (now === last) return;
    last = now;
  }
}

const watermark = () => env.DB.prepare("SELECT watermark FROM job_watermarks WHERE job = 'idle-visitors' AND database = 'DB'").first<{ watermark: string }>();

describe("the idle-visitor job's watermark", () => {
  it("a run reads only the identities past the watermark, however many older ones are kept", async () => {
    // Kept: no visitor alias (as an identity the API's POST /identities makes), so every run of old examined them all.
    const kept = await identitiesMade(300, 40, false);
    const asOf = Date.now();
    await walkedUpTo(asOf);

    const quiet = rowsReadOn(env.DB);
    await purgeIdleVisitors(quiet.env, asOf + 60_000, "DB");
    expect(quiet.rowsRead()).toBeLessThan(10);

    // Identities crossing the period after the watermark are still examined, and the idle ones go.
    const idle = await identitiesMade(5, 31, true);
    const next = rowsReadOn(env.DB);
    await purgeIdleVisitors(next.env, asOf + 120_000, "DB");
    expect(await count(`SELECT count(*) AS n FROM identities WHERE project_id = ?`, idle.projectId)).toBe(0);
    expect(next.rowsRead()).toBeLessThan(100);
    expect(await count(`SELECT count(*) AS n FROM identities WHERE project_id = ?`, kept.projectId)).toBe(300);
  });

  it("each run examines at most 500 identities and resumes after the last one it examined", async () => {
    // Made now, looked at 31 days on: they cross the period together.
    const made = await identitiesMade(700, 0, true);
    const asOf = Date.now() + 31 * day;
    // Everything made before them examined first (made 30 days before asOf minus a millisecond: not them).
    await walkedUpTo(Date.parse(new Date(made.start + 30 * day - 1).toISOString()));
    const left = () => count("SELECT count(*) AS n FROM identities WHERE project_id = ?", made.projectId);
    await purgeIdleVisitors(env, asOf, "DB");
    expect((await watermark())!.watermark).toBe(made.ids[499]);
    expect(await left()).toBe(200);
    await purgeIdleVisitors(env, asOf, "DB");
    expect((await watermark())!.watermark).toBe(made.ids[699]);
    expect(await left()).toBe(0);
  });

  it("a watermark written under another binding does not apply", async () => {
    await env.DB.prepare(
      "INSERT INTO job_watermarks (job, database, watermark, updated) VALUES ('idle-visitors', 'DB_ELSEWHERE', 'idn_ZZZZZZZZZZ', ?1)",
    )
      .bind(new Date().toISOString())
      .run();
    const idle = await identitiesMade(3, 0, true);
    await walkedUpTo(Date.now() + 31 * day);
    expect(await count("SELECT count(*) AS n FROM identities WHERE project_id = ?", idle.projectId)).toBe(0);
  });
});
