// The organization's pages in Debian's Chromium: members (invite, change a role, remove; a member's sessions and API
// tokens, one ended and one revoked) and the audit trail that records each of those with who did it, filtered and
// downloadable, as docs/portal.md shows.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, api, dialog, expectAccessible, mailedSignInSecret, openPortalBrowser, portalSession, poll, type PortalBrowser, shot, shown, signIn } from "./portal-helpers";

let portal: PortalBrowser;

beforeAll(async () => {
  portal = await openPortalBrowser();
  await signIn(portal.page);
});

afterAll(async () => {
  await portal?.browser.close();
});

describe("members and the audit trail", () => {
  const email = `auditor-${randomUUID().slice(0, 8)}@agency.example`;

  it("invites a member, changes their role and removes them, each confirmed on the page", async () => {
    const { page } = portal;
    await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Members" }).click();
    await page.getByRole("heading", { name: "Members", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Invite a member" }).click();
    const invite = dialog(page, "invite-member");
    await invite.getByLabel("E-mail address").fill(email);
    await invite.getByLabel("Role").selectOption("viewer");
    await invite.getByRole("button", { name: "Send invitation" }).click();
    const row = page.getByRole("row").filter({ hasText: email });
    await shown(page, row);
    expect(await row.getByRole("cell").nth(1).textContent()).toBe("Viewer");
    await expectAccessible(page, "members");

    await page.getByRole("button", { name: `Change ${email}'s role` }).click();
    const edit = dialog(page, "edit-member");
    await edit.getByLabel("Role").selectOption("editor");
    await edit.getByRole("button", { name: "Save role" }).click();
    await poll(() => row.getByRole("cell").nth(1).textContent()).toBe("Editor");

    await page.getByRole("button", { name: `Remove ${email}` }).click();
    await dialog(page, "remove-member").getByRole("button", { name: "Remove member" }).click();
    await poll(() => row.count()).toBe(0);
    expect(portal.pageErrors).toEqual([]);
  });

  it("shows a member's sessions and API tokens, ends a session and revokes a token", async () => {
    const { page } = portal;
    const member = `laptop-${randomUUID().slice(0, 8)}@agency.example`;
    expect((await api(adminToken, "POST", "/admin/v1/members", { email: member, role: "editor" })).status).toBe(202);
    // The member accepts their invitation (read from the captured outbox) and makes a token, outside this browser.
    const link = await mailedSignInSecret(member);
    const session = await portalSession({ link });
    const made = await session.call("POST", "/portal/api/api-tokens", { name: "deploy", scopes: ["projects:read"], expiresInDays: 30 });
    expect(made.status).toBe(201);
    const token = made.body.token;

    await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Members" }).click();
    // The page may already be the members page (the test before ends there): read the list again.
    await page.reload();
    await page.getByRole("button", { name: `Access of ${member}: sessions and API tokens` }).click();
    const access = dialog(page, "member-access");
    const sessionRow = access.getByRole("row").filter({ hasText: "Sign-in link" });
    await shown(page, sessionRow);
    const tokenRow = access.getByRole("row").filter({ hasText: "deploy" });
    await shown(page, tokenRow);
    expect(await tokenRow.textContent()).toContain("projects:read");
    await expectAccessible(page, "a member's sessions and tokens");
    await shot(page, "member-access");

    await sessionRow.getByRole("button", { name: /^End session/ }).click();
    await poll(() => sessionRow.count()).toBe(0);
    await poll(session.status).toBe(401);

    page.once("dialog", (question) => void question.accept());
    await tokenRow.getByRole("button", { name: "Revoke API token deploy" }).click();
    await poll(() => tokenRow.count()).toBe(0);
    const refused = await api(token, "GET", "/admin/v1/projects");
    expect([refused.status, refused.body.code]).toEqual([401, "token_revoked"]);
    await page.keyboard.press("Escape");
    await access.waitFor({ state: "hidden" });
    expect(portal.pageErrors).toEqual([]);
  });

  it("shows who did each of those, filters by object, and downloads the same entries", async () => {
    const { page } = portal;
    await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Audit trail" }).click();
    await page.getByRole("heading", { name: "Audit trail", level: 1 }).waitFor();
    await page.getByLabel("Object").fill("/admin/v1/members");
    await page.getByRole("button", { name: "Filter" }).click();
    const rows = page.getByRole("row").filter({ hasText: "/admin/v1/members" });
    await poll(async () => (await rows.allTextContents()).join("\n")).toMatch(/removeMember[\s\S]*updateMember[\s\S]*inviteMember/);
    // Signed in with the admin token: each entry names it, as break-glass.
    expect(await rows.first().textContent()).toContain("Admin token");
    await expectAccessible(page, "audit trail");
    await shot(page, "audit");

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download CSV" }).click();
    const csv = await (await download).createReadStream().then(async (stream) => {
      let text = "";
      for await (const chunk of stream) text += chunk;
      return text;
    });
    const lines = csv.trim().split("\r\n");
    expect(lines[0]).toBe("seq,at,memberId,role,credential,operationId,method,object,projectId,status,address,entryHash,previous");
    expect(lines.slice(1).every((line) => line.includes('"/admin/v1/members'))).toBe(true);
    expect(lines.some((line) => line.includes('"inviteMember"'))).toBe(true);
    expect(portal.pageErrors).toEqual([]);
  });
});
