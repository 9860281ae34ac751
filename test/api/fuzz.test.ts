// Property-based fuzzing of every operation in the app's own OpenAPI document, so a new route is covered the day it is
// added. Each call varies its path parameters, query, body, headers and credentials: inputs come from each
// operation's schemas (mostly well-formed, with real ids of this and other projects mixed in, so requests get past
// validation into the storage paths) and from plain junk; headers the API reads (bookmark, preconditions, origin,
// regime, scan pass, client address, content type) with junk values; and the credential the operation asks for, or
// none, a made-up or tampered token, another project's, or the other kind (admin or client). For every answer: no
// 5xx but the ones the operation documents for a deployment without something (503), every 4xx an RFC 9457 problem,
// and nothing stored when the request was refused. Runs are seeded per operation, so CI is reproducible, and bounded
// (`runsPerOperation`); `npm run fuzz` runs 100 per operation (FUZZ_RUNS); bump `seedBase` to explore new inputs.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { configuredTenant, permissionBody } from "./configuration-fixture";
import { adminToken, newClient, ok, openApiDocument, origin } from "./helpers";

const seedBase = 7;
const runsPerOperation = Number(env.FUZZ_RUNS) || 12;
const methods = ["get", "post", "put", "patch", "delete"] as const;
type Schema = Record<string, any>;
type Operation = { method: string; path: string; op: Schema };

const doc = (await openApiDocument()).body;

/** Every operation, destructive ones last so they do not remove what the others exercise. */
const operations: Operation[] = Object.entries<Schema>(doc.paths)
  .flatMap(([path, item]) => methods.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] })))
  .sort((a, b) => Number(a.method === "delete") - Number(b.method === "delete") || Number(/^\/admin\/v1\/projects\/\{projectId\}$/.test(a.path)) - Number(/^\/admin\/v1\/projects\/\{projectId\}$/.test(b.path)));

// The world the fuzzer plays in: a configured project with history, and a second project whose ids must stay foreign.
const home = await configuredTenant();
const away = await configuredTenant();
for (const t of [home, away]) {
  ok(await t.api("POST", "/permissions", permissionBody(t, "approved", "2026-01-01T10:00:00.000Z")), 201);
  ok(await t.api("POST", "/objections", { identityId: t.identityId, requested: "2026-01-01T11:00:00Z", request: { purposes: [{ purposeId: t.analytics }] } }), 201);
  ok(await t.api("POST", "/erasures", { identityId: t.identityId }), 201);
  ok(await t.api("POST", "/accesses", { identityId: t.identityId }), 201);
  ok(await t.api("POST", "/identities", { referenceId: "fuzz", aliases: [{ type: "urn:svc:email", identifier: "fuzz@example.com" }] }), 201);
}
// A spare client: its id may be fuzzed (its secret regenerated, itself deleted) without revoking `home.token`.
const spare = await newClient(home.projectId);

/** Every id stored so far, by prefix (`pur`, `idn`, ...): path parameters and id fields draw from these. */
async function harvestIds() {
  const { results: tables } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'").all<{ name: string }>();
  const ids = new Map<string, Set<string>>();
  for (const { name } of tables) {
    const { results } = await env.DB.prepare(`SELECT * FROM "${name}" LIMIT 200`).all();
    for (const match of JSON.stringify(results).matchAll(/\b([a-z]{2,4})_[0-9A-HJKMNP-TV-Z]{26}\b/g)) {
      if (match[0] === home.clientId) continue;
      if (!ids.has(match[1])) ids.set(match[1], new Set());
      ids.get(match[1])!.add(match[0]);
    }
  }
  return new Map([...ids].map(([prefix, set]) => [prefix, [...set]]));
}
const ids = await harvestIds();
ids.set("cli", [spare.clientId, ...(ids.get("cli") ?? []).filter((id) => id !== home.clientId)]);
const allIds = [...ids.values()].flat();

/** What counts as "stored": rows per table, and the latest `updated` where a table has one (catches in-place edits). */
const { results: tableList } = await env.DB.prepare(
  "SELECT m.name, EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'updated') AS has_updated FROM sqlite_master m WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '_cf_%' AND m.name <> 'd1_migrations'",
).all<{ name: string; has_updated: number }>();
// Webhook deliveries are written by the queue consumer in the background, never by the request being checked. The
// audit trail records an operator's refusals by design (docs/security.md#the-audit-trail): counted apart, at most one.
const watched = tableList.filter((t) => !/deliver/.test(t.name) && t.name !== "audit_entries");
/**
 * The watched tables' fingerprint and the audit trail's length, read in one statement (the property reads both twice a
 * run): a subquery per table rather than a statement per table in a batch, which cost a D1 statement's overhead
 * (prepare, result, the call between isolates) a hundred times over per read (docs/testing.md#where-the-time-goes).
 */
const fingerprintQuery = `SELECT ${watched
  .map((t, i) => `(SELECT count(*) FROM "${t.name}") AS n${i}${t.has_updated ? `, (SELECT max(updated) FROM "${t.name}") AS u${i}` : ""}`)
  .join(", ")}, (SELECT count(*) FROM audit_entries) AS audited`;
async function stored() {
  const row = (await env.DB.prepare(fingerprintQuery).first<Record<string, number | string | null>>())!;
  return {
    fingerprint: Object.fromEntries(watched.map((t, i) => [t.name, t.has_updated ? { n: row[`n${i}`], u: row[`u${i}`] } : { n: row[`n${i}`] }])),
    audited: row.audited as number,
  };
}

/**
 * One instance per kind of string and JSON arbitrary, shared by every operation's property: fast-check builds a lookup
 * table of every character each time `fc.string` or `fc.jsonValue` is called, which was a fifth of this file's CPU
 * when each operation built its own (docs/testing.md#where-the-time-goes). Arbitraries hold no state, so the values
 * drawn for a seed are the same.
 */
const sharedArbitraries = new Map<string, fc.Arbitrary<unknown>>();
function shared<T>(kind: string, constraints: object, make: () => fc.Arbitrary<T>): fc.Arbitrary<T> {
  const key = `${kind} ${JSON.stringify(constraints)}`;
  if (!sharedArbitraries.has(key)) sharedArbitraries.set(key, make());
  return sharedArbitraries.get(key) as fc.Arbitrary<T>;
}
const string = (constraints: fc.StringConstraints) => shared("string", constraints, () => fc.string(constraints));
const jsonValue = (constraints: fc.JsonSharedConstraints) => shared("jsonValue", constraints, () => fc.jsonValue(constraints));

const resolve = (schema: Schema): Schema => (schema?.$ref ? resolve(doc.components.schemas[schema.$ref.split("/").pop()]) : schema ?? {});

/** A string for an id field or parameter: a real id of the kind the schema's example names, sometimes any id. */
function idArbitrary(example: unknown, fallback: fc.Arbitrary<string>) {
  const prefix = typeof example === "string" ? /^([a-z]{2,4})_/.exec(example)?.[1] : undefined;
  const known = prefix && ids.get(prefix)?.length ? ids.get(prefix)! : allIds;
  return fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 3 }, { arbitrary: fallback, weight: 1 });
}

/** Values a JSON Schema (OpenAPI 3.1) describes, size-bounded; unknown shapes fall back to any JSON. */
function fromSchema(raw: Schema, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(raw);
  if (depth > 6) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return fc.oneof(...options.map((s: Schema) => fromSchema(s, depth + 1)));
  if (schema.allOf) return fromSchema(schema.allOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : undefined;
  if (type && type.length > 1) return fc.oneof(...type.map((t: string) => fromSchema({ ...schema, type: t }, depth)));
  switch (type?.[0]) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({ min: schema.minimum ?? -10, max: Math.min(schema.maximum ?? 1000, 1e6) });
    case "number":
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case "string":
      return stringFrom(schema);
    case "array": {
      const item = fromSchema(schema.items ?? {}, depth + 1);
      const minLength = schema.minItems ?? 0;
      return fc.array(item, { minLength, maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 3, 3)) });
    }
    case "object": {
      const properties = Object.entries<Schema>(schema.properties ?? {});
      if (!properties.length && schema.additionalProperties) return fc.dictionary(string({ maxLength: 8 }), fromSchema(schema.additionalProperties, depth + 1), { maxKeys: 3 });
      return fc.record(Object.fromEntries(properties.map(([key, s]) => [key, fromSchema(s, depth + 1)])), { requiredKeys: schema.required ?? [] });
    }
    default:
      return jsonValue({ maxDepth: 2 });
  }
}

function stringFrom(schema: Schema): fc.Arbitrary<string> {
  let base: fc.Arbitrary<string>;
  if (schema.format === "uri" || schema.format === "url") base = fc.webUrl();
  else if (schema.format === "email") base = fc.emailAddress();
  else if (schema.format === "date-time") base = fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  else if (schema.pattern) {
    try {
      base = fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 200));
    } catch {
      base = string({ maxLength: 20 });
    }
  } else base = string({ minLength: schema.minLength ?? 0, maxLength: Math.max(schema.minLength ?? 0, Math.min(schema.maxLength ?? 24, 24)) });
  const example = schema.example;
  if (typeof example === "string" && /^\d{4}-\d\d-\d\dT/.test(example)) {
    // A timestamp field: instants in the past, written with Z or with an offset.
    const past = fc.date({ min: new Date("2020-01-01"), max: new Date(Date.now() - 60_000), noInvalidDate: true });
    base = fc.oneof(base, past.map((d) => d.toISOString()), past.map((d) => d.toISOString().replace("Z", "+00:00")));
  } else if (typeof example === "string" && !/^[a-z]{2,4}_/.test(example)) {
    base = fc.oneof(base, fc.constant(example));
  }
  return idArbitrary(example, base).filter((s) => s.length >= (schema.minLength ?? 0));
}

/** Strings that tend to break parsers and routers. */
const junk = fc.oneof(
  string({ maxLength: 40 }),
  string({ unit: "binary", maxLength: 20 }),
  fc.constantFrom("", " ", "%", "..", "../..", "null", "-1", "0", "1e309", "'; DROP TABLE identities; --", "%00", "\u0000", "😀", "a".repeat(600), "a".repeat(20_000), "prj_" + "0".repeat(26)),
);

/** A body: schema-shaped (most of the time), schema-shaped with a field broken or added, any JSON, or not JSON. */
function bodyArbitrary(op: Schema): fc.Arbitrary<{ raw: string; type: string } | undefined> {
  const content = op.requestBody?.content ?? {};
  const type = Object.keys(content).find((t) => t.includes("json") || t.includes("form"));
  if (!type) return fc.constant(undefined);
  const shaped = fromSchema(content[type].schema ?? {});
  const broken = fc.tuple(shaped, string({ maxLength: 10 }), jsonValue({ maxDepth: 1 })).map(([value, key, junkValue]) =>
    value && typeof value === "object" && !Array.isArray(value) ? { ...value, [key]: junkValue } : junkValue,
  );
  const value = fc.oneof({ arbitrary: shaped, weight: 4 }, { arbitrary: broken, weight: 2 }, { arbitrary: jsonValue({ maxDepth: 3 }), weight: 1 });
  const encode = (v: unknown) =>
    type.includes("form") ? new URLSearchParams(Object.entries(v && typeof v === "object" ? v : { v }).map(([k, x]): [string, string] => [k, String(x)])).toString() : JSON.stringify(v);
  return fc.oneof(
    { arbitrary: value.map((v) => ({ raw: encode(v), type })), weight: 6 },
    { arbitrary: junk.map((raw) => ({ raw, type })), weight: 1 },
  );
}

function paramArbitrary(parameter: Schema, segment: string): fc.Arbitrary<string> {
  const name: string = parameter.name;
  if (name === "project_id" || name === "projectId") {
    return fc.oneof({ arbitrary: fc.constant(home.projectId), weight: 6 }, { arbitrary: fc.constant(away.projectId), weight: 1 }, { arbitrary: junk, weight: 1 });
  }
  if (name === "alias") return fc.oneof(fc.constant("urn:svc:email:fuzz@example.com"), fc.constant("fuzz"), junk);
  const schema = resolve(parameter.schema ?? {});
  const known = idsNamedBy(name, segment);
  const real = known.length ? fc.constantFrom(...known) : idArbitrary(parameter.example ?? schema.example, junk);
  return fc.oneof({ arbitrary: real, weight: 4 }, { arbitrary: fc.constantFrom(...allIds), weight: 1 }, { arbitrary: fromSchema(schema).map(String), weight: 1 });
}

/**
 * Ids whose prefix abbreviates the parameter's name or the path segment before it (`party_id` → `pty`,
 * `/permissions/{request_id}` → `prm`), so most generated paths name something that exists.
 */
function idsNamedBy(name: string, segment: string) {
  const abbreviates = (prefix: string, word: string) => {
    let at = 0;
    for (const letter of word.toLowerCase()) if (letter === prefix[at]) at++;
    return at === prefix.length && word.toLowerCase()[0] === prefix[0];
  };
  const word = name.replace(/_?id$/i, "");
  return [...ids].filter(([prefix]) => abbreviates(prefix, word) || abbreviates(prefix, segment)).flatMap(([, list]) => list);
}

function queryArbitrary(op: Schema): fc.Arbitrary<string> {
  const declared = (op.parameters ?? []).filter((p: Schema) => p.in === "query");
  const values = fc.record(
    Object.fromEntries(declared.map((p: Schema) => [p.name, fc.oneof(fromSchema(p.schema ?? {}).map(String), junk, idArbitrary(undefined, junk))])),
    { requiredKeys: [] },
  );
  const extra = fc.dictionary(string({ minLength: 1, maxLength: 6 }), junk, { maxKeys: 2 });
  return fc.tuple(values, extra).map(([known, unknown]) => {
    const query = new URLSearchParams({ ...unknown, ...(known as Record<string, string>) }).toString();
    return query ? `?${query}` : "";
  });
}

/** The credential an operation asks for: the admin token, none, or the home project's token. */
function credentialFor(op: Schema): string | undefined {
  const security: Schema[] = op.security ?? doc.security ?? [];
  if (security.length === 0) return undefined;
  if (security.some((s) => "adminToken" in s)) return adminToken;
  return home.token;
}

/** What a header may carry (a Request refuses other bytes before the Worker would see them). */
const headerSafe = (value: string) => value.replace(/[^\t\x20-\x7e\x80-\xff]/g, "").slice(0, 8_000);

/**
 * The `Authorization` header: mostly the credential the operation asks for; else none, a made-up or tampered token,
 * another project's token, the other kind of credential, or another scheme.
 */
function authorizationArbitrary(op: Schema): fc.Arbitrary<string | undefined> {
  const declared = credentialFor(op);
  const bearer = (token: string) => `Bearer ${token}`;
  return fc.oneof(
    { arbitrary: fc.constant(declared && bearer(declared)), weight: 8 },
    { arbitrary: fc.constant(undefined), weight: 1 },
    { arbitrary: junk.map((token) => headerSafe(bearer(token))), weight: 1 },
    { arbitrary: fc.constant(bearer(home.token.slice(0, -6) + (home.token.endsWith("AAAAAA") ? "BBBBBB" : "AAAAAA"))), weight: 1 },
    { arbitrary: fc.constantFrom(bearer(away.token), bearer(declared === adminToken ? home.token : adminToken)), weight: 1 },
    { arbitrary: junk.map((value) => headerSafe(`Basic ${btoa(headerSafe(value))}`)), weight: 1 },
  );
}

/** Headers the API reads, with junk, now and then. */
const headersArbitrary = fc.dictionary(
  fc.constantFrom("if-none-match", "if-match", "assent-bookmark", "origin", "x-assent-regime", "accept-language", "assent-scan-pass", "cf-connecting-ip", "accept", "sec-gpc", "content-type"),
  fc.oneof(junk, fc.constantFrom("*", '"abc"', "null", "https://shop.example", "application/json", "text/plain", "1", "de-DE,de;q=0.9")).map(headerSafe),
  { maxKeys: 3 },
);

/**
 * The one kind of 5xx allowed: a 503 the operation documents, for a deployment without something the call needs
 * (a setting, the scanner's Worker, the client bundles). Not the input's fault, and not a crash.
 */
const deploymentGaps = ["not_configured", "browser_unavailable", "widget_not_built"];
function expected5xx(op: Schema, reply: { status: number; text: string }) {
  if (reply.status !== 503 || !op.responses?.["503"]) return false;
  try {
    return deploymentGaps.includes(JSON.parse(reply.text).code);
  } catch {
    return false;
  }
}

/** Calls the Worker and waits for its tail work (outbox dispatch), so no write lands after the "after" snapshot. */
async function send(method: string, url: string, authorization: string | undefined, body: { raw: string; type: string } | undefined, extra: Record<string, string>) {
  const headers: Record<string, string> = {};
  if (authorization) headers.authorization = authorization;
  if (body) headers["content-type"] = body.type;
  Object.assign(headers, extra);
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(origin + url, { method: method.toUpperCase(), headers, body: body?.raw }), env, ctx);
  await waitOnExecutionContext(ctx);
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}

describe("fuzzing every operation of /openapi.json", { timeout: 4_000 * runsPerOperation + 30_000 }, () => {
  it("covers the routes the document lists", () => {
    expect(operations.length).toBeGreaterThan(50);
    expect(operations.map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining(["post /privacy/v2/projects/{project_id}/permissions", "get /privacy/v2/projects/{project_id}/identities/{identityId}/permission-state"]),
    );
  });

  it("found by the fuzzer: a PUT naming another project's identity stored aliases under a 404", async () => {
    const before = (await stored()).fingerprint;
    const reply = await home.api("PUT", `/identities/${away.identityId}`, { aliases: [{ type: "urn:svc:email", identifier: "stray@example.com" }] });
    expect(reply.status).toBe(404);
    expect((await stored()).fingerprint).toEqual(before);
  });

  operations.forEach(({ method, path, op }, index) => {
    it(`${method.toUpperCase()} ${path}`, async () => {
      const parameters: Schema[] = (op.parameters ?? []).filter((p: Schema) => p.in === "path");
      const input = fc.record({
        params: fc.tuple(...parameters.map((p) => paramArbitrary(p, path.split(`/{${p.name}}`)[0].split("/").pop() ?? ""))),
        query: queryArbitrary(op),
        body: bodyArbitrary(op),
        authorization: authorizationArbitrary(op),
        headers: headersArbitrary,
      });
      await fc.assert(
        fc.asyncProperty(input, async ({ params, query, body, authorization, headers }) => {
          let url = path;
          parameters.forEach((p, i) => (url = url.replace(`{${p.name}}`, encodeURIComponent(params[i]))));
          url += query;
          const before = await stored();
          const reply = await send(method, url, authorization, body, headers);
          const context = `${method.toUpperCase()} ${url.slice(0, 300)} ${JSON.stringify(headers).slice(0, 300)} ${authorization?.slice(0, 40) ?? ""} ${body?.raw.slice(0, 300) ?? ""} -> ${reply.status} ${reply.text.slice(0, 300)}`;
          if (reply.status >= 500) expect(expected5xx(op, reply), context).toBe(true);
          if (reply.status >= 400) {
            // Every error is a problem document; the token endpoint documents its RFC 6749 errors as application/json.
            const documentedType = Object.keys(op.responses?.[reply.status]?.content ?? {})[0] ?? "application/problem+json";
            const problem = JSON.parse(reply.text);
            // A bad Assent-Bookmark is refused before any route, as a problem, on every operation (the API's description says so).
            expect(reply.type, context).toBe(problem.code === "invalid_bookmark" ? "application/problem+json" : documentedType);
            expect(problem, context).toMatchObject({ status: reply.status, type: expect.stringMatching(/^urn:assent:problem:/), title: expect.any(String), detail: expect.any(String), code: expect.any(String) });
            const after = await stored();
            expect(after.fingerprint, `stored something on a refusal: ${context}`).toEqual(before.fingerprint);
            expect(after.audited, `audited a refusal more than once: ${context}`).toBeLessThanOrEqual(before.audited + 1);
          } else if (reply.type?.includes("json")) {
            expect(() => JSON.parse(reply.text), context).not.toThrow();
          }
        }),
        { numRuns: runsPerOperation, seed: seedBase * 1000 + index, endOnFailure: true },
      );
    });
  });
});
