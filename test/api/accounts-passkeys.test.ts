// Passkeys (issue 34): register one in a member's session, sign in with it; challenges single use, short-lived and
// bound to the session or the pending sign-in; bad input 4xx. The authenticator is a software one (soft-authenticator.ts).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { call, expectProblem, origin } from "./helpers";
import { auditOf, invited, owner, type Member } from "./accounts-helpers";
import { softAuthenticator } from "./soft-authenticator";

let boss: Awaited<ReturnType<typeof owner>>;

beforeAll(async () => {
  boss = await owner();
});

let addresses = 0;
const headers = (extra: Record<string, string> = {}) => ({ origin, "cf-connecting-ip": `198.51.100.${++addresses}`, ...extra });

async function registered(member: Member) {
  const key = await softAuthenticator(origin);
  const options = await member.call("POST", "/portal/api/passkeys/registration-options");
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  const response = await key.register(options.body as { challenge: string });
  const reply = await member.call("POST", "/portal/api/passkeys", { name: "Laptop", response });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { key, response };
}

/** Starts a passkey sign-in: its options and the cookie binding them to this "browser". */
async function signInOptions() {
  const reply = await call("POST", "/portal/api/passkey-sign-in/options", { headers: headers() });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const cookie = /(__Secure-assent_passkey=[^;]+)/.exec(reply.headers.get("set-cookie") ?? "")![1];
  return { options: reply.body as { challenge: string }, cookie };
}

const signIn = (cookie: string | undefined, response: unknown) =>
  call("POST", "/portal/api/passkey-sign-in", { body: { response }, headers: headers(cookie ? { cookie } : {}) });

describe("passkeys", () => {
  it("a member registers a passkey, lists it, signs in with it (a session of credential passkey) and deletes it", async () => {
    const member = await invited(boss, "passkey-user@example.com", "editor");
    const { key } = await registered(member);
    const listed = (await member.call("GET", "/portal/api/passkeys")).body.items;
    expect(listed).toEqual([expect.objectContaining({ id: key.id, name: "Laptop", lastUsed: null })]);
    const { options, cookie } = await signInOptions();
    const reply = await signIn(cookie, await key.assert(options));
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const session = /(__Host-assent_portal=[^;]+)/.exec(reply.headers.get("set-cookie") ?? "")![1];
    const sessions = await call("GET", "/portal/api/sessions", { headers: { cookie: session } });
    expect(sessions.body.items.find((s: { current: boolean }) => s.current)).toMatchObject({ credential: "passkey" });
    const [entry] = await auditOf(boss, `?member=${member.memberId}`);
    expect(entry).toMatchObject({ operationId: "signInWithPasskey", credential: "passkey", role: "editor" });
    expect((await member.call("DELETE", `/portal/api/passkeys/${key.id}`)).status).toBe(204);
    const again = await signInOptions();
    expectProblem(await signIn(again.cookie, await key.assert(again.options)), 401, "passkey_invalid");
  });

  it("a registration challenge works once and only in the session that asked for it", async () => {
    const member = await invited(boss, "passkey-replay@example.com", "viewer");
    const { response } = await registered(member);
    expectProblem(await member.call("POST", "/portal/api/passkeys", { name: "Again", response }), 400, "challenge_invalid");
    const other = await invited(boss, "passkey-other@example.com", "viewer");
    const key = await softAuthenticator(origin);
    const options = (await member.call("POST", "/portal/api/passkeys/registration-options")).body as { challenge: string };
    expectProblem(await other.call("POST", "/portal/api/passkeys", { name: "Stolen", response: await key.register(options) }), 400, "challenge_invalid");
  });

  it("a sign-in challenge works once, expires, and needs the browser that asked for it", async () => {
    const member = await invited(boss, "passkey-signin@example.com", "viewer");
    const { key } = await registered(member);
    const first = await signInOptions();
    const assertion = await key.assert(first.options);
    expect((await signIn(first.cookie, assertion)).status).toBe(201);
    expectProblem(await signIn(first.cookie, assertion), 400, "challenge_invalid");
    const second = await signInOptions();
    const fresh = await key.assert(second.options);
    expectProblem(await signIn(undefined, fresh), 400, "challenge_invalid");
    const third = await signInOptions();
    await env.DB.prepare("UPDATE webauthn_challenges SET expires = '2000-01-01T00:00:00.000Z' WHERE purpose = 'sign-in'").run();
    expectProblem(await signIn(third.cookie, await key.assert(third.options)), 400, "challenge_invalid");
  });

  it("refuses bad input with 4xx problems, never 5xx", async () => {
    const member = await invited(boss, "passkey-bad@example.com", "viewer");
    expectProblem(await member.call("POST", "/portal/api/passkeys", { name: "x", response: { id: "a" } }), 400, "validation_failed");
    const options = (await member.call("POST", "/portal/api/passkeys/registration-options")).body as { challenge: string };
    const key = await softAuthenticator(origin);
    const good = await key.register(options);
    const garbage = { ...good, response: { ...good.response, attestationObject: "AAAA" } };
    expectProblem(await member.call("POST", "/portal/api/passkeys", { name: "x", response: garbage }), 400, "passkey_invalid");
    const wrongChallenge = await key.register({ challenge: "bm90LXRoZS1jaGFsbGVuZ2U" });
    await member.call("POST", "/portal/api/passkeys/registration-options");
    expectProblem(await member.call("POST", "/portal/api/passkeys", { name: "x", response: wrongChallenge }), 400, "passkey_invalid");
    const { options: signInChallenge, cookie } = await signInOptions();
    const stranger = await softAuthenticator(origin);
    expectProblem(await signIn(cookie, await stranger.assert(signInChallenge)), 401, "passkey_invalid");
    expectProblem(await signIn(cookie, { id: "x" }), 400, "validation_failed");
    const crossOrigin = await call("POST", "/portal/api/passkey-sign-in/options", { headers: { origin: "https://evil.example", "cf-connecting-ip": "198.51.100.250" } });
    expectProblem(crossOrigin, 403, "cross_origin_refused");
  });
});
