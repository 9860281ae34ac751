import { env } from "cloudflare:workers";
import { expect, vi } from "vitest";
import type { Env } from "../../worker/env";
import { configuredTenant, permissionBody } from "./configuration-fixture";
import { admin, call, ok, origin } from "./helpers";
import { fetchWithSettings } from "./hub-helpers";

/** A documentation address (RFC 3849) per call: each test's requests count against limits of their own. */
export const freshAddress = () => `2001:db8::${crypto.getRandomValues(new Uint16Array(3)).join(":").replace(/(\d+)/g, (n) => Number(n).toString(16))}`;

export const uniqueEmail = (name = "anna") => `${name}.${crypto.randomUUID().slice(0, 8)}@mail.example`;
export const uniquePhone = () => `+4670${String(crypto.getRandomValues(new Uint32Array(1))[0] % 10_000_000).padStart(7, "0")}`;

export const bothChannels = { email: { aliasType: "urn:svc:email" }, sms: { aliasType: "urn:svc:phone" } };

/** A configured tenant (purposes, one identity) whose privacy center verifies by email and SMS. */
export async function centerTenant(channels: object = bothChannels) {
  const tenant = await configuredTenant();
  ok(await admin("PUT", `/projects/${tenant.projectId}/privacy-center`, { channels, retentionDays: 30, theme: { "--assent-accent": "#0b6e4f" } }));
  return tenant;
}

/** A call to the project's privacy-center API, from `ip` (a fresh address unless given). */
export const center = <M extends string>(
  projectId: string,
  method: M,
  path: string,
  options: { body?: unknown; session?: string; ip?: string } = {},
) =>
  call(method, `/browser/v1/projects/${projectId}/privacy-center${path}`, {
    body: options.body,
    token: options.session,
    headers: { "cf-connecting-ip": options.ip ?? freshAddress() },
  });

/** The code in the newest captured email to `to` (waits for the delivery that runs after the answer). */
export async function emailedCode(projectId: string, to: string, after = 0): Promise<string> {
  return vi.waitFor(
    async () => {
      const { items } = ok(await admin("GET", `/projects/${projectId}/email-outbox?to=${encodeURIComponent(to)}`)) as { items: { text: string }[] };
      expect(items.length).toBeGreaterThan(after);
      return /\b(\d{6})\b/.exec(items[0].text)![1];
    },
    { timeout: 10_000, interval: 50 },
  );
}

/** The verification-code rows of a project (what is stored at rest). */
export const codeRows = (projectId: string) =>
  env.DB.prepare("SELECT * FROM verification_codes WHERE project_id = ? ORDER BY created").bind(projectId).all<Record<string, unknown>>().then((r) => r.results);

/** Asks for a code by email and verifies it: the session token. */
export async function verifiedByEmail(projectId: string, address: string) {
  ok(await center(projectId, "POST", "/codes", { body: { channel: "email", address } }), 202);
  const code = await emailedCode(projectId, address.toLowerCase());
  const verified = ok(await center(projectId, "POST", "/sessions", { body: { channel: "email", address, code } }), 201) as { sessionToken: string };
  return verified.sessionToken;
}

/** A call to the project's privacy-center API through the real app with some settings changed (an email or SMS provider); waits for the delivery. */
export const centerWithSettings = (settings: Partial<Env>, projectId: string, method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) =>
  fetchWithSettings(
    settings,
    new Request(`${origin}/browser/v1/projects/${projectId}/privacy-center${path}`, {
      method,
      headers: { "content-type": "application/json", "cf-connecting-ip": freshAddress(), ...options.headers },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    }),
  );

const countOf = async (sql: string, projectId: string) => (await env.DB.prepare(sql).bind(projectId).first<{ n: number }>())!.n;

/**
 * Everything a privacy-center call can write for a project: codes, verifications, requests, log entries, emails, SMS
 * and events. A refused call must leave it as it was.
 */
export const written = async (projectId: string) => ({
  codes: (await codeRows(projectId)).length,
  verifications: await countOf("SELECT count(*) AS n FROM verifications WHERE project_id = ?", projectId),
  requests: await countOf("SELECT count(*) AS n FROM requests WHERE project_id = ?", projectId),
  logEntries: await countOf("SELECT count(*) AS n FROM log_entries WHERE project_id = ?", projectId),
  emails: await countOf("SELECT count(*) AS n FROM email_outbox WHERE project_id = ?", projectId),
  sms: await countOf("SELECT count(*) AS n FROM sms_messages WHERE project_id = ?", projectId),
  events: await countOf("SELECT count(*) AS n FROM events WHERE project_id = ?", projectId),
});

export type Person = { verification: { method: string; verifiedAt: string }; identity: { identityId: string } | null; decisions: { requestId: string; receipt: string | null }[]; requests: PersonRequest[] };
export type PersonRequest = { requestId: string; kind: string; status: string; created: string; updated: string; deadline: string; extendedDeadline: string; verification: { method: string; verifiedAt: string } | null; download: { url: string; expires: string } | null };

/** A tenant whose identity carries `email` as its alias, with one consent recorded. */
export async function personWithConsent(email: string) {
  const tenant = await centerTenant();
  const { identityId } = ok(await tenant.api("POST", "/identities", { aliases: [{ type: "urn:svc:email", identifier: email }] }), 201) as { identityId: string };
  ok(await tenant.api("POST", "/permissions", permissionBody(tenant, "approved", new Date().toISOString(), identityId)), 201);
  return { ...tenant, identityId };
}

/** The verified person's view. */
export const me = async (projectId: string, session: string) => ok(await center(projectId, "GET", "/me", { session })) as Person;
