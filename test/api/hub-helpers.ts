import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { identityTokenScopes } from "../../worker/auth/browser-tokens";
import { secretVersionOf } from "../../worker/auth/clients-cache";
import { issueToken } from "../../worker/auth/tokens";
import { app } from "../../worker/app";
import type { Env } from "../../worker/env";
import { sha256Hex } from "../../worker/lib/crypto";
import { admin, newClient, newTenant, origin, replyTo } from "./helpers";

/** A backend client registered for SMS by the operator. */
export async function registeredTenant() {
  const tenant = await newTenant();
  const reply = await admin("PUT", `/sms/clients/${tenant.clientId}`);
  expect(reply.status).toBe(201);
  return tenant;
}

/** A token as a browser gets it: scoped to one data subject (`idn`), as the widget's token exchange will mint. */
export async function identityScopedToken(projectId: string, type: "web" | "backend") {
  const { clientId, clientSecret } = await newClient(projectId, type);
  const sv = secretVersionOf(await sha256Hex(clientSecret));
  const { token } = await issueToken(env, origin, { clientId, pid: projectId, ctp: type, sv, idn: "idt_subject", scopes: identityTokenScopes }, 600);
  return token;
}

/** One request through the real app with some settings changed (an upstream gateway): same D1, KV and code. */
export async function callWithSettings<M extends string, P extends string>(
  settings: Partial<Env>,
  method: M,
  path: P,
  options: { token: string; body: unknown },
) {
  const request = new Request(origin + path, {
    method,
    headers: { authorization: `Bearer ${options.token}`, "content-type": "application/json" },
    body: JSON.stringify(options.body),
  });
  const ctx = createExecutionContext();
  const res = await app.fetch(request, { ...env, ...settings }, ctx);
  await waitOnExecutionContext(ctx);
  return replyTo(method, path, res);
}

/** Any request through the real app with some settings changed (routes, credentials): same D1, KV and code. */
export async function fetchWithSettings(settings: Partial<Env>, request: Request) {
  const ctx = createExecutionContext();
  const res = await app.fetch(request, { ...env, ...settings }, ctx);
  await waitOnExecutionContext(ctx);
  return replyTo(request.method, new URL(request.url).pathname, res);
}

/** Settings for SMS routes: `SMS_ROUTES` and the `SMS_CREDENTIALS` secret, with callbacks to the test origin. */
export const smsSettings = (routes: Record<string, unknown>, credentials: Record<string, unknown>): Partial<Env> => ({
  SMS_ROUTES: JSON.stringify(routes),
  SMS_CREDENTIALS: JSON.stringify(credentials),
  ISSUER: origin,
});

/** What a provider fake received for an account (see test/api/sms-provider-fakes.js). */
export const providerLog = async (account: string) => (await fetch(`http://sms-fakes.test/__log/${account}`)).json<any[]>();

/** An account name unique to the test, usable in ids such as Twilio's AC… SIDs. */
export const uniqueAccount = (projectId: string) => projectId.replace(/[^0-9A-Za-z]/g, "");

/** One outbox message with its trail, through the admin API. */
export async function messageWithTrail(id: string) {
  const reply = await admin("GET", `/messages/${id}`);
  expect(reply.status).toBe(200);
  return reply.body as Record<string, any>;
}

/** The outbox rows of one project, oldest first. */
export async function outboxOf(projectId: string) {
  const reply = await admin("GET", `/messages?projectId=${projectId}&limit=200`);
  expect(reply.status).toBe(200);
  return (reply.body.items as Record<string, any>[]).reverse();
}

export const genericSms = (overrides: Record<string, unknown> = {}) => ({
  genericSMSMessagePayload: { receiver: "+46701234567", sender: "DemoShop", message: "Your code is 123456", ...overrides },
});
