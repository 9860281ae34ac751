import { env } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { configuredTenant } from "./configuration-fixture";
import { admin, call, ok } from "./helpers";

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
