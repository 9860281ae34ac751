// Single sign-on in Chromium (issue 34): an organization's OpenID Connect provider, a real one started on this machine
// (test/sso/provider.ts, `oidc-provider`), configured through the admin API; an operator clicks "Sign in with SSO" in
// the portal, signs in on the provider's own login page and lands in the portal as a member made just in time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, api, baseUrl, openPortalBrowser, shot, type PortalBrowser } from "./portal-helpers";
import { ssoClient, startSsoProvider, type RunningProvider } from "../sso/provider";

let provider: RunningProvider;
let b: PortalBrowser;
// The service is shared by the browser files and outlives a run's organization: a domain of this run's own.
const domain = `e2e${Date.now().toString(36)}.example`;

beforeAll(async () => {
  provider = await startSsoProvider();
  const put = await api(adminToken, "PUT", "/admin/v1/sso", {
    issuer: provider.issuer,
    clientId: ssoClient.clientId,
    clientSecret: ssoClient.clientSecret,
    domains: [domain],
    defaultRole: "editor",
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  b = await openPortalBrowser();
});

afterAll(async () => {
  await b?.browser.close();
  await provider?.close();
});

describe("single sign-on in the portal", () => {
  it("goes from the sign-in page through the provider's login page into the portal, as a new editor", async () => {
    const { page, pageErrors } = b;
    const email = `ann@${domain}`;
    await page.goto(`${baseUrl}/portal/`);
    await page.getByLabel("Work email").fill(email);
    await page.getByRole("button", { name: "Sign in with SSO" }).click();
    // The provider's own page, on its own origin, with the address it was handed as the login hint.
    await page.waitForURL((url) => url.origin === provider.issuer && url.pathname.startsWith("/interaction/"));
    await expect.poll(() => page.locator('input[name="login"]').inputValue()).toBe(email);
    await page.locator('input[name="password"]').fill("any password");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe("");
    await shot(page, "portal-sso-signed-in");
    const members = await api(adminToken, "GET", "/admin/v1/members");
    const ann = (members.body as { items: { id: string; email: string; role: string }[] }).items.find((m) => m.email === email);
    expect(ann?.role).toBe("editor");
    const audit = await api(adminToken, "GET", `/admin/v1/audit?member=${ann!.id}`);
    expect((audit.body as { items: { operationId: string; credential: string }[] }).items[0]).toMatchObject({ operationId: "signIn", credential: "sso" });
    // An editor is not an owner: refused the single sign-on settings (read when the section is opened), whose form the
    // project list then does not show.
    const settingsAnswer = page.waitForResponse((response) => new URL(response.url()).pathname === "/admin/v1/sso");
    await page.locator("ap-sso-settings summary").click();
    expect((await settingsAnswer).status()).toBe(403);
    await page.getByText("Only the organization's owners configure single sign-on.").waitFor();
    expect(await page.locator("ap-sso-settings form").count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
