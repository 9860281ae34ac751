import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { identityTokenScopes } from "../../worker/auth/browser-tokens";
import { secretVersionOf } from "../../worker/auth/clients-cache";
import { issueToken } from "../../worker/auth/tokens";
import { app } from "../../worker/app";
import type { Env } from "../../worker/env";
import { sha256Hex } from "../../worker/lib/crypto";
import { admin, newClient, newTenant, origin, type Reply } from "./helpers";

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
export async function callWithSettings(
  settings: Partial<Env>,
  method: string,
  path: string,
  options: { token: string; body: unknown },
): Promise<Reply> {
  const request = new Request(origin + path, {
    method,
    headers: { authorization: `Bearer ${options.token}`, "content-type": "application/json" },
    body: JSON.stringify(options.body),
  });
  const res = await app.fetch(request, { ...env, ...settings }, createExecutionContext());
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}
