import { exports } from "cloudflare:workers";
import { eventTypes } from "../../worker/events/outbox";
import { expect } from "vitest";

export const origin = "http://assent.test";
export const adminToken = "test-admin-token";

export type Reply = { status: number; headers: Headers; body: any };

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
export async function call(method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await exports.default.fetch(new Request(origin + path, { method, headers, body, cf: options.cf as RequestInit["cf"] }));
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

export const admin = (method: string, path: string, body?: unknown) =>
  call(method, `/admin/v1${path}`, { body, token: adminToken });

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

let counter = 0;

export async function newProject(name = `Project ${++counter}`) {
  const reply = await admin("POST", "/projects", { name, controller: { name: "Example AB" } });
  expect(reply.status).toBe(201);
  return reply.body as { projectId: string };
}

export async function newClient(projectId: string, type = "backend", allowedOrigins: string[] = []) {
  const reply = await admin("POST", `/projects/${projectId}/clients`, { name: `${type} app`, type, allowedOrigins });
  expect(reply.status).toBe(201);
  return reply.body as { clientId: string; clientSecret: string };
}

export async function tokenFor(clientId: string, clientSecret: string): Promise<string> {
  const reply = await call("POST", "/oauth/token", {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    rawBody: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }).toString(),
  });
  expect(reply.status).toBe(200);
  return reply.body.access_token;
}

/** A project with a backend client and its token; `api` calls paths under the project's privacy root. */
export async function newTenant(type = "backend") {
  const { projectId } = await newProject();
  const { clientId, clientSecret } = await newClient(projectId, type);
  const token = await tokenFor(clientId, clientSecret);
  const api = (method: string, path: string, body?: unknown) =>
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
export async function subscribed(tenant: { projectId: string; token?: string }, types: readonly string[] = eventTypes) {
  const token = tenant.token ?? (await newClient(tenant.projectId).then(({ clientId, clientSecret }) => tokenFor(clientId, clientSecret)));
  const key = crypto.randomUUID();
  const reply = await call("POST", `/privacy/v2/projects/${tenant.projectId}/webhooks`, { body: { url: `${webhookReceiver}/ok/${key}`, events: types }, token });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { key, webhookId: reply.body.webhookId as string };
}
