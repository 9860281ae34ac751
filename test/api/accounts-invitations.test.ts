// Invitations (issue 34): they expire, an expired one says so, and waiting for a sign-in link does not outlive it.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { call, expectProblem, origin, problemOf } from "./helpers";
import { mailedLink, owner, signInWith } from "./accounts-helpers";

let boss: Awaited<ReturnType<typeof owner>>;

beforeAll(async () => {
  boss = await owner();
});

const expireInvitationsOf = (email: string) =>
  env.DB.prepare("UPDATE sign_in_links SET expires = '2000-01-01T00:00:00.000Z' WHERE member_id = (SELECT id FROM members WHERE email = ?)")
    .bind(email)
    .run();

const signInReply = (link: string) => call("POST", "/portal/api/session", { body: { link }, headers: { origin, "cf-connecting-ip": "198.51.100.40" } });

describe("invitations that expire", () => {
  it("an expired invitation answers 401 invitation_expired, and the member shows as invited with the date it expires", async () => {
    expect((await boss.call("POST", "/admin/v1/members", { email: "late@example.com", role: "editor" })).status).toBe(202);
    const link = await mailedLink("late@example.com");
    const listed = (await boss.call("GET", "/admin/v1/members")).body.items.find((m: { email: string }) => m.email === "late@example.com");
    expect(listed).toMatchObject({ status: "invited" });
    expect(Date.parse(listed.invitationExpires) - Date.now()).toBeGreaterThan(6 * 24 * 3600 * 1000);
    await expireInvitationsOf("late@example.com");
    const reply = await signInReply(link);
    expectProblem(reply, 401, "invitation_expired");
    expect(problemOf(reply).detail).toMatch(/invit/i);
  });

  it("an invitee who has not accepted gets no sign-in link by asking for one (the expiry holds), and the answer is the same", async () => {
    expect((await boss.call("POST", "/admin/v1/members", { email: "pending@example.com", role: "viewer" })).status).toBe(202);
    await mailedLink("pending@example.com");
    await expireInvitationsOf("pending@example.com");
    const asked = await call("POST", "/portal/api/sign-in-links", { body: { email: "pending@example.com" }, headers: { origin, "cf-connecting-ip": "198.51.100.41" } });
    expect([asked.status, asked.body]).toEqual([202, null]);
    // The request mails after its answer: a later mail to a member shows that the earlier one had its turn.
    await call("POST", "/portal/api/sign-in-links", { body: { email: "owner@example.com" }, headers: { origin, "cf-connecting-ip": "198.51.100.42" } });
    await mailedLink("owner@example.com");
    const mails = await env.DB.prepare("SELECT count(*) AS n FROM email_outbox WHERE \"to\" = 'pending@example.com'").first<{ n: number }>();
    expect(mails!.n).toBe(1);
  });

  it("inviting an invitee again mails a new invitation that signs in and makes them active; an active member is 409", async () => {
    expect((await boss.call("POST", "/admin/v1/members", { email: "again@example.com", role: "viewer" })).status).toBe(202);
    const first = await mailedLink("again@example.com");
    await expireInvitationsOf("again@example.com");
    expect((await boss.call("POST", "/admin/v1/members", { email: "again@example.com", role: "editor" })).status).toBe(202);
    const second = await mailedLink("again@example.com");
    expectProblem(await signInReply(first), 401, "invitation_expired");
    await signInWith(second);
    const listed = (await boss.call("GET", "/admin/v1/members")).body.items.find((m: { email: string }) => m.email === "again@example.com");
    expect(listed).toMatchObject({ status: "active", role: "editor", invitationExpires: null });
    expectProblem(await boss.call("POST", "/admin/v1/members", { email: "again@example.com", role: "viewer" }), 409, "member_exists");
  });
});
