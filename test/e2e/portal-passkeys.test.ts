// Operators as people in Chromium (issue 34): an owner invites an editor, whose invitation is read from the captured
// outbox; the editor accepts, registers a passkey with Chromium's virtual authenticator (CDP WebAuthn domain), signs
// out, signs in with the passkey and acts within the role (edits wording, is refused the clients).
// WebAuthn needs a domain as relying party, so the portal is opened at localhost rather than 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { adminToken, baseUrl, expectAccessible, openPortalBrowser, poll, shot, type PortalBrowser } from "./portal-helpers";

const portalUrl = baseUrl.replace("127.0.0.1", "localhost");
const ownerEmail = "owner@passkeys.e2e.example";
const editorEmail = "editor@passkeys.e2e.example";

let portal: PortalBrowser;
let organizationId = "";
let projectId = "";

/** A call as a signed-in owner makes it from the portal: the session cookie, the CSRF token, the same origin. */
type Owner = { cookie: string; csrfToken: string };
async function asOwner(owner: Owner, method: string, path: string, body?: unknown) {
  const res = await fetch(baseUrl + path, {
    method,
    headers: { cookie: owner.cookie, "x-csrf-token": owner.csrfToken, origin: baseUrl, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: res.status === 202 || res.status === 204 ? null : await res.json() };
}

/** The newest sign-in link's secret mailed to `to` (the captured outbox, kept under the organization's id). */
async function mailedSecret(to: string): Promise<string> {
  // vi.waitFor, not expect.poll: this also runs in beforeAll.
  return vi.waitFor(
    async () => {
      const res = await fetch(`${baseUrl}/admin/v1/projects/${organizationId}/email-outbox?to=${encodeURIComponent(to)}`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      const items = ((await res.json()) as { items: { text: string | null }[] }).items;
      const secret = /#sign-in=(sil_[A-Za-z0-9_-]+)/.exec(items[0]?.text ?? "")?.[1];
      if (!secret) throw new Error(`no sign-in link mailed to ${to} yet`);
      return secret;
    },
    { timeout: 30_000, interval: 100 },
  );
}

beforeAll(async () => {
  // An organization of its own, whose owner is invited: the suite's service is shared, so whether this deployment
  // already has a first owner (the bootstrap's) depends on which file ran first.
  const made = await fetch(`${baseUrl}/admin/v1/organizations`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "Passkey agency", ownerEmail }),
  });
  expect(made.status, await made.clone().text()).toBe(201);
  organizationId = ((await made.json()) as { organizationId: string }).organizationId;
  const signIn = await fetch(`${baseUrl}/portal/api/session`, {
    method: "POST",
    headers: { origin: baseUrl, "content-type": "application/json" },
    body: JSON.stringify({ link: await mailedSecret(ownerEmail) }),
  });
  expect(signIn.status).toBe(201);
  const owner = {
    cookie: /(__Host-assent_portal=[^;]+)/.exec(signIn.headers.get("set-cookie") ?? "")![1],
    csrfToken: ((await signIn.json()) as { csrfToken: string }).csrfToken,
  };
  const project = await asOwner(owner, "POST", "/admin/v1/projects", { name: "Passkey shop", controller: { name: "Passkey shop AB" } });
  expect(project.status).toBe(201);
  projectId = project.body.projectId;
  expect((await asOwner(owner, "POST", "/admin/v1/members", { email: editorEmail, role: "editor" })).status).toBe(202);
  portal = await openPortalBrowser();
});
afterAll(async () => {
  await portal?.browser.close();
});

describe("a member with a passkey", () => {
  it("accepts the invitation, registers a passkey, signs out, signs in with it and acts within the editor role", async () => {
    const { page, context, pageErrors } = portal;
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });

    await page.goto(`${portalUrl}/portal/#sign-in=${await mailedSecret(editorEmail)}`);
    await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();

    await page.getByRole("link", { name: "Your account" }).click();
    await page.getByRole("heading", { name: "Your account", level: 1 }).waitFor();
    await page.getByLabel("Name of the new passkey").fill("Chromium");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByRole("cell", { name: "Chromium" }).waitFor();
    // The member's own sessions: the one signed in through the invitation, this one.
    await page.getByRole("region", { name: "Sessions" }).getByRole("cell", { name: "This session" }).waitFor();
    await expectAccessible(page, "the account page");
    await shot(page, "account-passkeys");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
    await poll(async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials[0]?.signCount ?? 0).toBeGreaterThan(0);

    await page.goto(`${portalUrl}/portal/projects/${projectId}/wording`);
    await page.getByRole("heading", { name: "Translation coverage" }).waitFor();
    await page.goto(`${portalUrl}/portal/projects/${projectId}/clients`);
    await page.getByText(/lacks the scope clients:read/).waitFor();
    expect(pageErrors).toEqual([]);
  });
});

