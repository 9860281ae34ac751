// Single sign-on per organization (issue 34) against a real OpenID Connect provider started locally
// (test/sso/provider.ts, `oidc-provider` in Node): the owner's configuration, then the authorization code flow with
// PKCE followed by hand, redirect by redirect, through the provider's own login form.
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { adminToken, call, expectProblem, origin, replyTo } from "./helpers";
import { auditOf, invited, mailedLink, owner, signInWith } from "./accounts-helpers";
import { ssoClient } from "../sso/client";
import { purgeExpired } from "../../worker/retention/expiring";
import { reencryptSsoSecrets } from "../../worker/accounts/sso-key-rotation";

const issuer = inject("ssoIssuer");
const configuration = { issuer, clientId: ssoClient.clientId, clientSecret: ssoClient.clientSecret, domains: ["sso.example"], defaultRole: "editor" };

let boss: Awaited<ReturnType<typeof owner>>;

beforeAll(async () => {
  boss = await owner();
  const put = await boss.call("PUT", "/admin/v1/sso", configuration);
  expect(put.status, JSON.stringify(put.body)).toBe(200);
});

/** The cookies a browser would keep, per origin: the provider's and the service's (by name, both are few). */
class Jar {
  private cookies = new Map<string, string>();
  keep(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
      if (value === "" || attributes.some((a) => /max-age=0\b/i.test(a.trim()))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  get(name: string) {
    return this.cookies.get(name);
  }
}

/** Starts a sign-in as the portal does; the service's cookie goes into the jar. */
async function start(jar: Jar, email: string) {
  const response = await exports.default.fetch(
    new Request(`${origin}/portal/api/sso/start`, { method: "POST", headers: { origin, "content-type": "application/json" }, body: JSON.stringify({ email }) }),
  );
  jar.keep(response);
  return replyTo("POST", "/portal/api/sso/start", response);
}

/** At the provider: its login form, as a person would fill it in, up to the redirect back to Assent's callback. */
async function signInAtProvider(authorizationUrl: string, login: string): Promise<string> {
  const jar = new Jar();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith(origin)) return url;
    const response = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.keep(response);
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get("location")!, url).toString();
      continue;
    }
    const page = await response.text();
    expect(response.status, page).toBe(200);
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    expect(action, page).toBeDefined();
    const submitted = await fetch(new URL(action!.replace(/&amp;/g, "&"), url), {
      method: "POST",
      redirect: "manual",
      headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ prompt: "login", login, password: "any" }),
    });
    jar.keep(submitted);
    expect(submitted.status, await submitted.clone().text()).toBe(303);
    url = new URL(submitted.headers.get("location")!, url).toString();
  }
  throw new Error(`the provider never sent the browser back to ${origin}`);
}

/** The provider's redirect back, in the browser that started (its jar) or another. */
async function callback(url: string, jar: Jar) {
  const response = await exports.default.fetch(new Request(url, { redirect: "manual", headers: { cookie: jar.header(), "cf-connecting-ip": "198.51.100.20" } }));
  jar.keep(response);
  return { response, reply: await replyTo("GET", "/portal/api/sso/callback", response.clone()) };
}

async function signIn(email: string, login = email) {
  const jar = new Jar();
  const started = await start(jar, email);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const back = await signInAtProvider((started.body as { authorizationUrl: string }).authorizationUrl, login);
  return { jar, back, ...(await callback(back, jar)) };
}

describe("the organization's single sign-on configuration", () => {
  it("is the owner's: others are refused, the secret is stored encrypted, never shown, nor kept in the audit trail", async () => {
    const got = await boss.call("GET", "/admin/v1/sso");
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ issuer, clientId: ssoClient.clientId, clientSecretSet: true, domains: ["sso.example"], defaultRole: "editor", redirectUri: `${origin}/portal/api/sso/callback` });
    expect(JSON.stringify(got.body)).not.toContain(ssoClient.clientSecret);
    const row = await env.DB.prepare("SELECT client_secret_encrypted AS sealed FROM sso_configurations").first<{ sealed: string }>();
    expect(row!.sealed).toMatch(/^v1\./);
    expect(row!.sealed).not.toContain(ssoClient.clientSecret);

    const changed = await boss.call("PUT", "/admin/v1/sso", { ...configuration, clientSecret: undefined, domains: ["sso.example", "sso2.example"] });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const [entry] = (await auditOf(boss)).filter((e) => e.operationId === "putSsoConfiguration");
    expect(entry).toMatchObject({ status: 200, before: { domains: ["sso.example"] }, after: { domains: ["sso.example", "sso2.example"], clientSecretChanged: false } });
    const all = JSON.stringify(await auditOf(boss, "?limit=1000"));
    expect(all).not.toContain(ssoClient.clientSecret);

    const admin = await invited(boss, "admin@example.com", "admin");
    expectProblem(await admin.call("GET", "/admin/v1/sso"), 403, "insufficient_scope");
    expectProblem(await admin.call("PUT", "/admin/v1/sso", configuration), 403, "insufficient_scope");
  });

  it("refuses an issuer that is not https, one whose discovery does not read, an owner default role and a taken domain", async () => {
    expectProblem(await boss.call("PUT", "/admin/v1/sso", { ...configuration, issuer: "http://idp.example.com" }), 400, "sso_issuer_refused");
    expectProblem(await boss.call("PUT", "/admin/v1/sso", { ...configuration, issuer: `${issuer}/nothing-here` }), 422, "sso_discovery_failed");
    expect((await boss.call("PUT", "/admin/v1/sso", { ...configuration, defaultRole: "owner" })).status).toBe(400);
    expect((await boss.call("PUT", "/admin/v1/sso", { ...configuration, domains: [] })).status).toBe(400);
    const made = await call("POST", "/admin/v1/organizations", { token: adminToken, body: { name: "Other", ownerEmail: "owner@other.example" } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const other = await signInWith(await mailedLink("owner@other.example"));
    expectProblem(await other.call("PUT", "/admin/v1/sso", configuration), 409, "sso_domain_taken");
    expectProblem(await other.call("PUT", "/admin/v1/sso", { ...configuration, domains: ["other.example"], clientSecret: undefined }), 400, "sso_client_secret_required");
    expectProblem(await other.call("GET", "/admin/v1/sso"), 404, "not_found");
  });

  it("moves the client secret to a new secrets key while the previous one is set, so sign-in outlives the rotation", async () => {
    const rotated = { ...env, WEBHOOK_SECRETS_KEY: "a-new-secrets-key", WEBHOOK_SECRETS_KEY_PREVIOUS: env.WEBHOOK_SECRETS_KEY };
    const sealed = async () => (await env.DB.prepare("SELECT client_secret_encrypted AS s FROM sso_configurations").all<{ s: string }>()).results.map((r) => r.s);
    const before = await sealed();
    expect(await reencryptSsoSecrets(rotated)).toEqual({ reencrypted: before.length, unreadable: 0 });
    const after = await sealed();
    expect(after.every((value, i) => value !== before[i])).toBe(true);
    expect(await reencryptSsoSecrets(rotated)).toEqual({ reencrypted: 0, unreadable: 0 });
    // Back under the key the rest of this file's Worker runs with.
    const back = { ...env, WEBHOOK_SECRETS_KEY: env.WEBHOOK_SECRETS_KEY, WEBHOOK_SECRETS_KEY_PREVIOUS: "a-new-secrets-key" };
    expect((await reencryptSsoSecrets(back)).reencrypted).toBe(before.length);
  });
});

describe("signing in through the provider", () => {
  it("makes a member just in time with the default role and opens a portal session like any other", async () => {
    const { response, jar } = await signIn("ann@sso.example");
    expect(response.status, await response.clone().text()).toBe(303);
    expect(response.headers.get("location")).toBe("/portal/#signed-in=sso");
    const cookie = jar.get("__Host-assent_portal");
    expect(cookie).toBeDefined();
    expect(response.headers.getSetCookie().join("\n")).toMatch(/__Host-assent_portal=[^;]+;.*HttpOnly.*Secure.*SameSite=Strict/is);
    const session = await call("GET", "/portal/api/session", { headers: { cookie: `__Host-assent_portal=${cookie}` } });
    expect(session.status).toBe(200);
    const expires = Date.parse((session.body as { expires: string }).expires);
    expect(expires - Date.now()).toBeGreaterThan(3500_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(3600_000);
    const ann = ((await boss.call("GET", "/admin/v1/members")).body as { items: { id: string; email: string; role: string }[] }).items.find((m) => m.email === "ann@sso.example");
    expect(ann?.role).toBe("editor");
    const [entry] = await auditOf(boss, `?member=${ann!.id}`);
    expect(entry).toMatchObject({ operationId: "signIn", credential: "sso", role: "editor", status: 201, after: { joined: "just-in-time", role: "editor" } });

    // The second time, the same member.
    const again = await signIn("ann@sso.example");
    expect(again.response.status).toBe(303);
    expect(((await boss.call("GET", "/admin/v1/members")).body as { items: { email: string }[] }).items.filter((m) => m.email === "ann@sso.example")).toHaveLength(1);
    const [second] = await auditOf(boss, `?member=${ann!.id}`);
    expect(second.operationId).toBe("signIn");
    expect(second.after).toBeUndefined();
  });

  it("spends the state once: a replayed callback, a missing state and another browser's callback are 400", async () => {
    const jar = new Jar();
    const started = await start(jar, "bob@sso.example");
    const back = await signInAtProvider((started.body as { authorizationUrl: string }).authorizationUrl, "bob@sso.example");
    const stranger = await callback(back, new Jar());
    expectProblem(stranger.reply, 400, "sso_state_invalid");
    // The stranger's attempt spent it: the right browser cannot use it afterwards either (no second try at a state).
    expectProblem((await callback(back, jar)).reply, 400, "sso_state_invalid");

    const first = await signIn("carol@sso.example");
    expect(first.response.status).toBe(303);
    expectProblem((await callback(first.back, first.jar)).reply, 400, "sso_state_invalid");
    const withoutState = new URL(first.back);
    withoutState.searchParams.delete("state");
    expectProblem((await callback(withoutState.toString(), first.jar)).reply, 400, "sso_state_invalid");
    expectProblem((await callback(`${origin}/portal/api/sso/callback`, new Jar())).reply, 400, "sso_state_invalid");
  });

  it("sends a browser whose sign-in failed back to the portal, which says why", async () => {
    const navigated = await exports.default.fetch(
      new Request(`${origin}/portal/api/sso/callback?state=unknown&code=x`, { redirect: "manual", headers: { "sec-fetch-mode": "navigate", accept: "text/html" } }),
    );
    expect(navigated.status).toBe(303);
    expect(navigated.headers.get("location")).toBe("/portal/#sso-error=sso_state_invalid");
  });

  it("refuses an ID token whose nonce is not the sign-in's (401)", async () => {
    const jar = new Jar();
    const started = await start(jar, "dave@sso.example");
    const back = await signInAtProvider((started.body as { authorizationUrl: string }).authorizationUrl, "dave@sso.example");
    await env.DB.prepare("UPDATE sso_pending_sign_ins SET nonce = 'not-the-one-sent'").run();
    expectProblem((await callback(back, jar)).reply, 401, "sso_id_token_invalid");
  });

  it("refuses an address at another domain and an unverified one (403), and audits both", async () => {
    const elsewhere = await signIn("erin@sso.example", "erin@elsewhere.example");
    expectProblem(elsewhere.reply, 403, "sso_domain_mismatch");
    const unverified = await signIn("unverified-fred@sso.example");
    expectProblem(unverified.reply, 403, "sso_email_unverified");
    const refused = (await auditOf(boss)).filter((e) => e.operationId === "ssoCallback");
    expect(refused.map((e) => [e.status, e.credential, (e.after as { refused: string }).refused])).toEqual([
      [403, "sso", "email_unverified"],
      [403, "sso", "domain_mismatch"],
    ]);
    const emails = ((await boss.call("GET", "/admin/v1/members")).body as { items: { email: string }[] }).items.map((m) => m.email);
    expect(emails).not.toContain("erin@elsewhere.example");
    expect(emails).not.toContain("unverified-fred@sso.example");
  });

  it("leaves no sign-in under way behind: the cron deletes one 10 minutes after it started", async () => {
    await start(new Jar(), "gina@sso.example");
    const count = async () => (await env.DB.prepare("SELECT count(*) AS n FROM sso_pending_sign_ins").first<{ n: number }>())!.n;
    expect(await count()).toBeGreaterThan(0);
    await purgeExpired(env, Date.now() + 10 * 60_000 + 1000);
    expect(await count()).toBe(0);
  });

  it("answers an address no organization binds with 404, and bad input with 400, never 5xx", async () => {
    expectProblem(await start(new Jar(), "someone@unknown.example"), 404, "sso_not_configured");
    expect((await start(new Jar(), "not-an-address")).status).toBe(400);
    const crossSite = await call("POST", "/portal/api/sso/start", { body: { email: "ann@sso.example" }, headers: { origin: "https://evil.example" } });
    expectProblem(crossSite, 403, "cross_origin_refused");
    const huge = await exports.default.fetch(new Request(`${origin}/portal/api/sso/callback?state=${"x".repeat(5000)}`));
    expect(huge.status).toBe(400);
  });
});
