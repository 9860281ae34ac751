// A viewer's pages hold no personal data (issue 34, docs/security.md#roles): a project has an identity (a reference
// id and an e-mail address) and an erasure request; a viewer, signed in through their invitation in Chromium, opens
// every page of the portal. No page shows the identity, and no answer the pages got from the service carries it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sections } from "../../portal/src/router";
import { adminToken, api, baseUrl, mailedSignInSecret, openPortalBrowser, portalSession, poll, type PortalBrowser } from "./portal-helpers";

const marker = randomUUID().slice(0, 8);
const personal = { referenceId: `customer-${marker}`, email: `subject-${marker}@example.com` };
const viewerEmail = `viewer-${marker}@agency.example`;

let portal: PortalBrowser;
let projectId = "";
let identityId = "";
let requestId = "";
/** Every answer of the service the viewer's pages received. */
const answers: { path: string; body: string }[] = [];

beforeAll(async () => {
  const project = await api(adminToken, "POST", "/admin/v1/projects", { name: `Viewer ${marker}`, controller: { name: "Viewer AB" } });
  expect(project.status).toBe(201);
  projectId = project.body.projectId;
  // Project routes take a portal session, not the admin token: the break-glass admin's.
  const asAdmin = (await portalSession({ adminToken })).call;
  const identity = await asAdmin("POST", `/privacy/v2/projects/${projectId}/identities`, {
    referenceId: personal.referenceId,
    aliases: [{ type: "urn:svc:email", identifier: personal.email }],
  });
  expect(identity.status, JSON.stringify(identity.body)).toBe(201);
  identityId = identity.body.identityId;
  const erasure = await asAdmin("POST", `/privacy/v2/projects/${projectId}/erasures`, { identityId });
  expect(erasure.status, JSON.stringify(erasure.body)).toBe(201);
  requestId = erasure.body.requestId;

  expect((await api(adminToken, "POST", "/admin/v1/members", { email: viewerEmail, role: "viewer" })).status).toBe(202);
  const secret = await mailedSignInSecret(viewerEmail);

  portal = await openPortalBrowser();
  portal.page.on("response", async (response) => {
    const path = new URL(response.url()).pathname;
    if (!response.url().startsWith(baseUrl) || !/^\/(admin|privacy|portal\/api)\//.test(path)) return;
    answers.push({ path, body: await response.text().catch(() => "") });
  });
  await portal.page.goto(`${baseUrl}/portal/#sign-in=${secret}`);
  await portal.page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
});

afterAll(async () => {
  await portal?.browser.close();
});

const pages = () => [
  "/portal/",
  ...sections.map((section) => `/portal/projects/${projectId}${section.id === "overview" ? "" : `/${section.id}`}`),
  `/portal/projects/${projectId}/identities/${identityId}`,
  `/portal/projects/${projectId}/requests/${requestId}`,
  "/portal/members",
  "/portal/audit",
  "/portal/account",
];

describe("a viewer", () => {
  it("sees no personal data on any page, and the service sends the pages none", async () => {
    const { page, pageErrors } = portal;
    const shownText: string[] = [];
    for (const path of pages()) {
      await page.goto(baseUrl + path);
      // Loaded: the page's heading or its problem shows, and nothing shown says it is still loading (a closed section
      // loads when it is opened).
      await page.locator("main h1, main h2, main [role=alert]").first().waitFor();
      await poll(async () => ((await page.locator("main [role=status]", { hasText: /^Loading/ }).filter({ visible: true }).count()) ? `${path} still loading` : "loaded")).toBe("loaded");
      shownText.push(`${path}: ${await page.locator("body").innerText()}`);
    }
    for (const value of Object.values(personal)) {
      expect(shownText.filter((text) => text.includes(value))).toEqual([]);
      expect(answers.filter((answer) => answer.body.includes(value)).map((answer) => answer.path)).toEqual([]);
    }
    // The pages did ask: the identity and request pages were refused, not skipped.
    expect(answers.some((answer) => answer.path.includes(`/identities/${identityId}`) && answer.body.includes("insufficient_scope"))).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
