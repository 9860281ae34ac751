// Every kind of caller the authorization matrix plays, each built through the real endpoints (workerd, D1, KV).
import { expect } from "vitest";
import type { Schemas } from "../../shared/api/operations";
import { adminToken, call, newClient, newProject, origin, type Reply } from "../api/helpers";
import { mailedLink, signInWith } from "../api/accounts-helpers";
import { roles } from "../../worker/auth/roles";

/** A fresh client address per call, so the security project's low rate limits count only what a test means. */
let addresses = 0;
export const freshIp = () => `198.51.100.${(++addresses % 250) + 1}`;

export async function tokenFor(clientId: string, clientSecret: string, scope?: string) {
  return call("POST", "/oauth/token", {
    headers: { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": freshIp() },
    rawBody: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: clientSecret,
      ...(scope === undefined ? {} : { scope }),
    }).toString(),
  });
}

export async function clientToken(projectId: string, type: Schemas["Client"]["type"]) {
  const client = await newClient(projectId, type, type === "web" ? ["https://shop.example"] : []);
  const reply = await tokenFor(client.clientId, client.clientSecret);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return { ...client, token: reply.body.access_token as string };
}

export async function signIn(ip = freshIp()) {
  const reply = await call("POST", "/portal/api/session", { body: { adminToken }, headers: { origin, "cf-connecting-ip": ip } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const sessionId = /__Host-assent_portal=([^;]+)/.exec(reply.headers.get("set-cookie") ?? "")![1];
  return { cookie: `__Host-assent_portal=${sessionId}`, csrfToken: reply.body.csrfToken as string, sessionId };
}

export type CallerKind =
  | "none"
  | "admin token"
  | "portal session"
  | "portal session without CSRF"
  | "backend"
  | "web"
  | "ios"
  | "android"
  | "identity-scoped (own)"
  | "identity-scoped (other)"
  | "another project's backend"
  | RoleKind;

/** A member signed in to the portal with each role of the role table (worker/auth/roles.ts). */
export const roleKinds = roles.map((role) => `portal session: ${role}` as const);
export type RoleKind = (typeof roleKinds)[number];

/** The world of the matrix: a home project with one identity per identity-scoped token, and another project. */
export async function buildCallers() {
  const { projectId } = await newProject("Home");
  const backend = await clientToken(projectId, "backend");
  const web = await clientToken(projectId, "web");
  const ios = await clientToken(projectId, "ios");
  const android = await clientToken(projectId, "android");
  const api = <M extends string, P extends string>(method: M, path: P, body?: unknown) =>
    call(method, `/privacy/v2/projects/${projectId}${path}`, { body, token: backend.token });
  const own = (await api("POST", "/identities", {})).body.identityId as string;
  const other = (await api("POST", "/identities", {})).body.identityId as string;
  const mint = async (identityId: string) =>
    (await api("POST", `/identities/${identityId}/tokens`)).body.access_token as string;
  const ownToken = await mint(own);
  const otherToken = await mint(other);
  const away = await newProject("Away");
  const awayBackend = await clientToken(away.projectId, "backend");
  const session = await signIn();
  // Its own session: the matrix signs the other one out.
  const csrfLess = await signIn();
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  // The first owner (the bootstrap), then one member per other role, each invited by the owner and signed in by link.
  const owner = await call("POST", "/admin/v1/bootstrap", { token: adminToken, body: { email: "owner@matrix.example" } });
  expect(owner.status, JSON.stringify(owner.body)).toBe(201);
  const members: Record<string, { cookie: string; csrfToken: string }> = { owner: await signInWith(await mailedLink("owner@matrix.example")) };
  for (const role of roles.filter((r) => r !== "owner")) {
    const email = `${role}@matrix.example`;
    const invited = await call("POST", "/admin/v1/members", {
      body: { email, role },
      headers: { cookie: members.owner.cookie, origin, "x-csrf-token": members.owner.csrfToken, "cf-connecting-ip": freshIp() },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(202);
    members[role] = await signInWith(await mailedLink(email));
  }
  const roleHeaders = Object.fromEntries(
    roles.map((role) => [`portal session: ${role}`, { cookie: members[role].cookie, origin, "x-csrf-token": members[role].csrfToken }]),
  ) as unknown as Record<RoleKind, Record<string, string>>;
  const portal = { cookie: session.cookie, origin, "x-csrf-token": session.csrfToken };
  const headers: Record<CallerKind, Record<string, string>> = {
    none: {},
    "admin token": bearer(adminToken),
    "portal session": portal,
    "portal session without CSRF": { cookie: csrfLess.cookie, origin },
    backend: bearer(backend.token),
    web: bearer(web.token),
    ios: bearer(ios.token),
    android: bearer(android.token),
    "identity-scoped (own)": bearer(ownToken),
    "identity-scoped (other)": bearer(otherToken),
    "another project's backend": bearer(awayBackend.token),
    ...roleHeaders,
  };
  return { projectId, own, other, headers, session, backend, web };
}

/** A raw request through the Worker's fetch handler, from a fresh address (so no rate limit is shared). */
export const send = (method: string, path: string, headers: Record<string, string>, body?: string): Promise<Reply> =>
  call(method, path, {
    headers: { "cf-connecting-ip": freshIp(), ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    rawBody: body,
  });
