import { exports } from "cloudflare:workers";
import createClient from "openapi-fetch";
import { expect } from "vitest";
import type { JsonAnswer, Method, paths, Schemas } from "../../shared/api/operations";
import { eventTypes } from "../../worker/events/outbox";

export const origin = "http://assent.test";
export const adminToken = "test-admin-token";

type Split<S extends string> = S extends `${infer Head}/${infer Rest}` ? [Head, ...Split<Rest>] : [S];
type SegmentMatches<Concrete extends string, Template extends string> = Template extends `{${string}}` ? true : [Concrete] extends [Template] ? true : false;
type SegmentsMatch<Concrete extends string[], Template extends string[]> = Concrete extends [infer C extends string, ...infer CRest extends string[]]
  ? Template extends [infer T extends string, ...infer TRest extends string[]]
    ? SegmentMatches<C, T> extends true
      ? SegmentsMatch<CRest, TRest>
      : false
    : false
  : Template extends []
    ? true
    : false;
type WithoutQuery<S extends string> = S extends `${infer Path}?${string}` ? Path : S;

/** The OpenAPI path (`/admin/v1/projects/{projectId}`) that a concrete request path (`/admin/v1/projects/${id}`) is. */
export type TemplateOf<P extends string> = {
  [T in keyof paths & string]: SegmentsMatch<Split<WithoutQuery<P>>, Split<T>> extends true ? T : never;
}[keyof paths & string];

/** What `method` on `path` answers on success, as the generated types say; unknown where no operation is. */
export type AnswerTo<M extends string, P extends string> = [TemplateOf<P>] extends [never]
  ? unknown
  : M extends Method
    ? [JsonAnswer<TemplateOf<P>, M>] extends [never]
      ? unknown
      : JsonAnswer<TemplateOf<P>, M>
    : unknown;

/**
 * A reply as a test reads it. `body` is typed as what the operation answers on success (its path matched against the
 * generated OpenAPI paths), so a test reads it after asserting the status (`ok` does both); a problem's fields are
 * read through `problemOf`. A request no operation describes (a bad path, a method the API lacks) types it unknown.
 */
export type Reply<Body = unknown> = { status: number; headers: Headers; body: Body };

type CallOptions = {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  rawBody?: BodyInit;
  /** What Cloudflare's edge would put in `request.cf` (country, regionCode, …). */
  cf?: Record<string, unknown>;
};

/** A form-encoded body, as OAuth token requests send it. */
export const form = (fields: Record<string, string>) => ({
  headers: { "content-type": "application/x-www-form-urlencoded" },
  rawBody: new URLSearchParams(fields).toString(),
});

/** One request through the Worker's real fetch handler (workerd, real D1 and KV). */
export async function call<M extends string, P extends string>(method: M, path: P, options: CallOptions = {}): Promise<Reply<AnswerTo<M, P>>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  return replyTo(method, path, await exports.default.fetch(new Request(origin + path, { method, headers, body, cf: options.cf as RequestInit["cf"] })));
}

/** The reply to `method` on `path`: its body parsed when it is JSON (kept as text when not), typed as Reply says. */
export async function replyTo<M extends string, P extends string>(_method: M, _path: P, res: Response): Promise<Reply<AnswerTo<M, P>>> {
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed as AnswerTo<M, P> };
}

export const admin = <M extends string, P extends string>(method: M, path: P, body?: unknown) =>
  call(method, `/admin/v1${path}`, { body, token: adminToken });

/** The body of a reply that must have succeeded with `status`, typed as its operation's answer. */
export function ok<Body>(reply: Reply<Body>, status = 200): Body {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  return reply.body;
}

/**
 * The RFC 9457 problem of a reply that must have failed. Its body is typed by what the operation answers on success,
 * so the fields of a problem are read through here; members the API adds to one problem (`setting`, OAuth's `error`)
 * are unknown, for the test to assert.
 */
export function problemOf(reply: Reply): Schemas["Problem"] & Record<string, unknown> {
  expect(reply.status, JSON.stringify(reply.body)).toBeGreaterThanOrEqual(400);
  return reply.body as Schemas["Problem"] & Record<string, unknown>;
}

/** Asserts an RFC 9457 problem with the given status and code. */
export function expectProblem(reply: Reply, status: number, code: string) {
  expect(reply.headers.get("content-type")).toBe("application/problem+json");
  expect(reply.body).toMatchObject({ status, code, type: `urn:assent:problem:${code}` });
  expect(reply.status).toBe(status);
}

/** Asserts a token-endpoint error: RFC 6749 §5.2 `application/json` with `error`, the problem fields alongside. */
export function expectOAuthError(reply: Reply, status: number, error: string) {
  expect(reply.headers.get("content-type")).toBe("application/json");
  expect(reply.body).toMatchObject({ status, code: error, error, error_description: expect.any(String) });
  expect(reply.status).toBe(status);
}

/** What the export of an identity answers: the service's own shape, or ISO/IEC TS 27560 records with `format=iso27560`. */
type IdentityExportAnswer = AnswerTo<"GET", "/privacy/v2/projects/{project_id}/identities/{identityId}/data">;
export type IdentityExport = Exclude<IdentityExportAnswer, Schemas["Iso27560Export"]>;
export type Iso27560Export = Extract<IdentityExportAnswer, Schemas["Iso27560Export"]>;

/** The service's OpenAPI document, as the tests that walk it read it (the document does not describe itself). */
export type OpenApiDocument = {
  openapi: string;
  info: Record<string, unknown>;
  servers: unknown[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, any>; securitySchemes: Record<string, any> };
  security?: Record<string, string[]>[];
};

export const openApiDocument = () => call("GET", "/openapi.json") as Promise<Reply<OpenApiDocument>>;

/** The API as a client library calls it, through the Worker's fetch handler: the fixtures below set up through it. */
export const worker = createClient<paths>({ baseUrl: origin, fetch: (request) => exports.default.fetch(request) });
const asAdmin = { authorization: `Bearer ${adminToken}` };

/** The data of an answer of `worker` that must have succeeded with `status` (the problem document shows when not). */
export function answered<Data>({ data, error, response }: { data?: Data; error?: unknown; response: Response }, status = 200): Data {
  expect(response.status, JSON.stringify(error)).toBe(status);
  return data as Data;
}

let counter = 0;

export async function newProject(name = `Project ${++counter}`) {
  return answered(await worker.POST("/admin/v1/projects", { headers: asAdmin, body: { name, controller: { name: "Example AB" } } }), 201);
}

export async function newClient(projectId: string, type: Schemas["Client"]["type"] = "backend", allowedOrigins: string[] = []) {
  const body = { name: `${type} app`, type, allowedOrigins };
  return answered(await worker.POST("/admin/v1/projects/{project_id}/clients", { headers: asAdmin, params: { path: { project_id: projectId } }, body }), 201);
}

export async function tokenFor(clientId: string, clientSecret: string): Promise<string> {
  const issued = answered(
    await worker.POST("/oauth/token", {
      body: { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret },
      bodySerializer: (fields) => new URLSearchParams(fields as Record<string, string>).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    }),
  );
  return issued.access_token;
}

/** A project with a backend client and its token; `api` calls paths under the project's privacy root. */
export async function newTenant(type: Schemas["Client"]["type"] = "backend") {
  const { projectId } = await newProject();
  const { clientId, clientSecret } = await newClient(projectId, type);
  const token = await tokenFor(clientId, clientSecret);
  const api = <M extends string, P extends string>(method: M, path: P, body?: unknown) =>
    call(method, `/privacy/v2/projects/${projectId}${path}`, { body, token });
  return { projectId, clientId, clientSecret, token, api };
}

/** The api tests' stand-in for customers' endpoints (test/api/webhooks-receiver.js): every outbound fetch lands there. */
export const webhookReceiver = "https://hooks.customer.example";

/**
 * Subscribes a webhook of the project to `types` (default: every type) at the stand-in endpoint, which accepts
 * everything (`/ok/<key>`; `GET /__log/<key>` shows what arrived). The outbox keeps an event only for a subscriber,
 * so a test reading `events` rows subscribes first. Without a token, a backend client of the project is made.
 */
export async function subscribed(tenant: { projectId: string; token?: string }, types: Schemas["WebhookInput"]["events"] = [...eventTypes]) {
  const token = tenant.token ?? (await newClient(tenant.projectId).then(({ clientId, clientSecret }) => tokenFor(clientId, clientSecret)));
  const key = crypto.randomUUID();
  const body = { url: `${webhookReceiver}/ok/${key}`, events: types };
  const path = { project_id: tenant.projectId };
  const { webhookId } = answered(await worker.POST("/privacy/v2/projects/{project_id}/webhooks", { headers: { authorization: `Bearer ${token}` }, params: { path }, body }), 201);
  return { key, webhookId };
}

/**
 * Runs a test whose counts must fall in one window of the Rate Limiting binding. Its windows are aligned to the wall
 * clock (Miniflare, as Cloudflare), so on a slow machine a test can straddle the turn of a minute, and the counts of
 * the first window vanish halfway. A run that failed across a turn says nothing about the limit and is made again
 * (each run makes its own projects and addresses); one that failed within a window fails the test.
 */
export function inOneWindow(run: () => Promise<void>, periodSeconds = 60, runs = 3): () => Promise<void> {
  const windowOf = () => Math.floor(Date.now() / (periodSeconds * 1000));
  return async () => {
    for (let attempt = 1; ; attempt++) {
      const window = windowOf();
      try {
        return await run();
      } catch (error) {
        if (attempt >= runs || windowOf() === window) throw error;
      }
    }
  };
}
