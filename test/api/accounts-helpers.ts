// Operators as people in the workerd tests: the bootstrap owner, members signed in through their mailed links.
import { env } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { adminToken, call, origin, type Reply } from "./helpers";

let addresses = 0;
/** A fresh client address per sign-in, so the sign-in limit counts only what a test means. */
const freshIp = () => `203.0.113.${(++addresses % 250) + 1}`;

const taken = new Set<string>();

/** The newest sign-in link mailed to `email` that this helper has not handed out before (the captured outbox, under the organization's id). */
export async function mailedLink(email: string): Promise<string> {
  // The sign-in link request mails after its answer (waitUntil): wait for the row (vi.waitFor also works in beforeAll).
  return vi.waitFor(
    async () => {
      const row = await env.DB.prepare("SELECT text FROM email_outbox WHERE \"to\" = ? ORDER BY created DESC, rowid DESC LIMIT 1")
        .bind(email.toLowerCase())
        .first<{ text: string }>();
      const found = /#sign-in=(sil_[A-Za-z0-9_-]+)/.exec(row?.text ?? "")?.[1];
      if (!found || taken.has(found)) throw new Error(`no new sign-in link mailed to ${email} yet`);
      taken.add(found);
      return found;
    },
    { timeout: 15_000, interval: 50 },
  );
}

export type Member = { cookie: string; csrfToken: string; call: <M extends string, P extends string>(method: M, path: P, body?: unknown) => Promise<Reply<any>> };

/** Signs in with a link's secret; the member's calls carry the cookie, the same origin and the CSRF token. */
export async function signInWith(link: string): Promise<Member> {
  const reply = await call("POST", "/portal/api/session", { body: { link }, headers: { origin, "cf-connecting-ip": freshIp() } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const cookie = `__Host-assent_portal=${/__Host-assent_portal=([^;]+)/.exec(reply.headers.get("set-cookie") ?? "")![1]}`;
  const csrfToken = (reply.body as { csrfToken: string }).csrfToken;
  return {
    cookie,
    csrfToken,
    call: (method, path, body) => call(method, path, { body, headers: { cookie, origin, "x-csrf-token": csrfToken, "cf-connecting-ip": "192.0.2.7" } }),
  };
}

/** The deployment's first owner (made once per file's storage), signed in. */
export async function owner(email = "owner@example.com"): Promise<Member & { organizationId: string; memberId: string }> {
  const reply = await call("POST", "/admin/v1/bootstrap", { token: adminToken, body: { email } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const { organizationId, memberId } = reply.body as { organizationId: string; memberId: string };
  return { ...(await signInWith(await mailedLink(email))), organizationId, memberId };
}

/** Invites `email` with `role` as `by`, then signs the new member in through the invitation. */
export async function invited(by: Member, email: string, role: string, projectRoles?: { projectId: string; role: string }[]) {
  const reply = await by.call("POST", "/admin/v1/members", { email, role, ...(projectRoles ? { projectRoles } : {}) });
  expect(reply.status, JSON.stringify(reply.body)).toBe(202);
  const member = await signInWith(await mailedLink(email));
  const me = ((await by.call("GET", "/admin/v1/members")).body as { items: { id: string; email: string }[] }).items.find((m) => m.email === email)!;
  return { ...member, memberId: me.id };
}

/** The organization's audit entries as the owner reads them (newest first). */
export const auditOf = async (by: Member, query = "") =>
  ((await by.call("GET", `/admin/v1/audit${query}`)).body as { items: Record<string, any>[] }).items;
