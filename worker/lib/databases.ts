import type { Databases, Env } from "../env";

/**
 * Which D1 database holds which project (docs/operations.md#more-than-one-database-project-to-database-map). Every database carries the
 * whole schema; a project (its `projects` row and every row that references it) lives in exactly one, so foreign
 * keys and the write guard's one-batch checks stay inside it. `PROJECT_DATABASES` maps project ids to binding
 * names (`{"prj_…": "DB_SHARD_1"}`); a project it does not name is in `DB`, as are the global tables (the hub's).
 */
export const defaultDatabase = "DB";

let parsed: { text: string; map: ReadonlyMap<string, string> } | undefined;

/** The map, parsed once per isolate (and again only if the var changed); a Map, so ids like `__proto__` are just ids. */
export function databaseMap(env: Env): ReadonlyMap<string, string> {
  const text = env.PROJECT_DATABASES ?? "";
  if (parsed?.text === text) return parsed.map;
  const map = text.trim() === "" ? {} : (JSON.parse(text) as unknown);
  if (typeof map !== "object" || map === null || Array.isArray(map) || Object.values(map).some((v) => typeof v !== "string")) {
    throw new Error('PROJECT_DATABASES must be a JSON object of project id → D1 binding name, e.g. {"prj_…": "DB_SHARD_1"}.');
  }
  parsed = { text, map: new Map(Object.entries(map as Record<string, string>)) };
  return parsed.map;
}

/** Binding name of a project's database. */
export const databaseNameOf = (env: Env, projectId: string) => databaseMap(env).get(projectId) ?? defaultDatabase;

/** Every database in use: `DB` first, then each binding the map names once. */
export const databaseNames = (env: Env) => [...new Set([defaultDatabase, ...databaseMap(env).values()])];

/** A D1 binding by name. */
export function bindingNamed(env: Env, name: string): D1Database {
  const binding = (env as unknown as Record<string, D1Database | undefined>)[name];
  if (!binding) throw new Error(`PROJECT_DATABASES names ${name}, which is not a D1 binding of this Worker.`);
  return binding;
}

/** The databases of `env`, opened by `open` (a request's D1 sessions) or, by default, the bindings themselves. */
export function databasesOf(env: Env, open: (name: string) => D1Database = (name) => bindingNamed(env, name)): Databases {
  return {
    named: open,
    project: (projectId) => open(databaseNameOf(env, projectId)),
    every: () => databaseNames(env).map(open),
  };
}

/** Bindings the map names that this Worker lacks, or the var itself when it is not a valid map (readiness). */
export function missingDatabases(env: Env): string[] {
  try {
    return databaseNames(env).filter((name) => !(env as unknown as Record<string, unknown>)[name]);
  } catch {
    return ["PROJECT_DATABASES"];
  }
}

/** `env` with `DB` being the named binding: what the cron jobs, written against `env.DB`, run on, once per database. */
export const envOn = (env: Env, name: string): Env => ({ ...env, DB: bindingNamed(env, name) });
