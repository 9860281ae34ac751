// The privacy center's API in workerd against real D1: a person proves an address with a one-time code (captured
// email outbox; SMS through the hub's route to a provider fake), sees the identity it names and its receipts, and
// files access, portability, erasure and objection requests through the one write path.
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { purgeVerifications } from "../../worker/retention/jobs";
import { fetchWithSettings, providerLog, smsSettings } from "./hub-helpers";
import { call, expectProblem, ok, origin, subscribed } from "./helpers";
import {
  center,
  centerTenant,
  codeRows,
  emailedCode,
  freshAddress,
  me,
  personWithConsent,
  uniqueEmail,
  uniquePhone,
  verifiedByEmail,
  type PersonRequest,
} from "./privacy-center-helpers";

describe("the privacy center", () => {
  it("verifies by email, shows the identity and its receipts, and files each kind of request through the write path", async () => {
    const email = uniqueEmail();
    const tenant = await personWithConsent(email);
    const { key } = await subscribed(tenant, ["access.created", "erasure.created", "objection.created", "access.updated"]);

    const page = ok(await center(tenant.projectId, "GET", "?languages=de-CH,en")) as { channels: string[]; language: string; strings: Record<string, string> };
    expect(page.channels).toEqual(["email", "sms"]);
    expect(page.language).toBe("de");
    expect(page.strings.heading).toBe("Datenschutzcenter");
    // Without `languages`, the browser's Accept-Language, in the order of its q-values rather than as written.
    const byHeader = async (header: string) =>
      ((await call("GET", `/browser/v1/projects/${tenant.projectId}/privacy-center`, { headers: { "accept-language": header } })).body as { language: string }).language;
    expect(await byHeader("fr;q=0.5, de;q=0.9, en;q=0.1")).toBe("de");
    expect(await byHeader("fr;q=0, sv")).toBe("sv");
    expect(await byHeader("nl, fr;q=0.8")).toBe("nl");

    const session = await verifiedByEmail(tenant.projectId, email.toUpperCase().replace("@MAIL.EXAMPLE", "@mail.example"));
    const person = await me(tenant.projectId, session);
    expect(person.identity?.identityId).toBe(tenant.identityId);
    expect(person.verification.method).toBe("email");
    expect(person.decisions).toHaveLength(1);
    expect(person.decisions[0].receipt).toMatch(/^ey/);

    const filed: PersonRequest[] = [];
    for (const body of [{ kind: "access" }, { kind: "portability" }, { kind: "erasure" }, { kind: "objection", purposes: [tenant.analytics] }]) {
      filed.push(ok(await center(tenant.projectId, "POST", "/requests", { body, session }), 201) as PersonRequest);
    }
    expect(filed.map((r) => [r.kind, r.status])).toEqual([
      ["access", "received"],
      ["portability", "received"],
      ["erasure", "received"],
      ["objection", "received"],
    ]);
    for (const request of filed) {
      expect(request.verification).toEqual({ id: expect.stringMatching(/^vrf_/), method: "email", verifiedAt: person.verification.verifiedAt });
      // One calendar month (Art. 12(3)), and the extension's three.
      const created = new Date(request.created);
      expect(new Date(request.deadline).getUTCMonth()).toBe((created.getUTCMonth() + 1) % 12);
      expect(new Date(request.extendedDeadline).getUTCMonth()).toBe((created.getUTCMonth() + 3) % 12);
    }

    // The operator sees them in the API, with how the person was verified, and each has a receipt.
    const access = ok(await tenant.api("GET", `/accesses/${filed[0].requestId}`)) as { meta: Record<string, any>; receipt?: string; request: unknown };
    expect(access.meta.requestedBy).toBe("privacy-center");
    expect(access.meta.context.verification).toMatchObject({ method: "email", verifiedAt: person.verification.verifiedAt });
    expect(access.receipt).toMatch(/^ey/);
    expect((ok(await tenant.api("GET", `/accesses/${filed[1].requestId}`)) as { request: unknown }).request).toEqual({ format: "json" });

    // The log holds the verification and every request.
    const { entries } = ok(await tenant.api("GET", "/log/entries")) as unknown as { entries: { payload: { kind: string; method?: string } }[] };
    const kinds = entries.map((e) => e.payload.kind);
    expect(entries.find((e) => e.payload.kind === "verification.succeeded")?.payload.method).toBe("email");
    expect(kinds.filter((k) => ["access.created", "erasure.created", "objection.created"].includes(k))).toHaveLength(4);

    // The operator completes the access request: its download link appears and gives the export.
    ok(await tenant.api("PUT", `/accesses/${filed[0].requestId}`, { status: "completed" }));
    const after = await me(tenant.projectId, session);
    const completed = after.requests.find((r) => r.requestId === filed[0].requestId)!;
    expect(completed.status).toBe("completed");
    expect(completed.download?.url).toContain(`${origin}/browser/v1/projects/${tenant.projectId}/privacy-center/downloads/`);
    const exported = ok(await call("GET", completed.download!.url.slice(origin.length))) as { identity: { identityId: string }; accesses: unknown[] };
    expect(exported.identity.identityId).toBe(tenant.identityId);
    expect(exported.accesses).toHaveLength(2);
    expect(after.requests.find((r) => r.requestId === filed[1].requestId)!.download).toBeNull();

    // A completed portability request's export is machine-readable JSON (Art. 20), a download of its own.
    ok(await tenant.api("PUT", `/accesses/${filed[1].requestId}`, { status: "completed" }));
    const portable = (await me(tenant.projectId, session)).requests.find((r) => r.requestId === filed[1].requestId)!;
    const file = await call("GET", portable.download!.url.slice(origin.length));
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toMatch(/^application\/json/);
    expect(file.headers.get("content-disposition")).toBe(`attachment; filename="portable-data-${filed[1].requestId}.json"`);
    expect(file.body).toMatchObject({ format: "assent-export/v1", identity: { identityId: tenant.identityId } });

    // Webhook events like any request's.
    await vi.waitFor(
      async () => {
        const received = (await (await fetch(`https://hooks.customer.example/__log/${key}`)).json()) as { body: string }[];
        const types = received.map((r) => JSON.parse(r.body).type);
        expect(types.filter((t: string) => t.endsWith(".created"))).toHaveLength(4);
        expect(types).toContain("access.updated");
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it("sends the SMS code through the hub's route to its provider", async () => {
    const tenant = await centerTenant();
    const phone = uniquePhone();
    const { identityId } = ok(await tenant.api("POST", "/identities", { aliases: [{ type: "urn:svc:phone", identifier: phone }] }), 201) as { identityId: string };
    const account = `pc${tenant.projectId.slice(-8)}`;
    const settings = smsSettings({ sms_hub: { adapter: "46elks" } }, { sms_hub: { username: account, password: "good-password" } });
    const sent = await fetchWithSettings(
      settings,
      new Request(`${origin}/browser/v1/projects/${tenant.projectId}/privacy-center/codes`, {
        method: "POST",
        headers: { "content-type": "application/json", "cf-connecting-ip": freshAddress() },
        body: JSON.stringify({ channel: "sms", address: phone }),
      }),
    );
    expect(sent.status).toBe(202);
    const [message] = await providerLog(account);
    expect(message.form.to).toBe(phone);
    const code = /\b(\d{6})\b/.exec(message.form.message)![1];
    const verified = ok(await center(tenant.projectId, "POST", "/sessions", { body: { channel: "sms", address: phone, code } }), 201) as { sessionToken: string };
    const person = await me(tenant.projectId, verified.sessionToken);
    expect(person.verification.method).toBe("sms");
    expect(person.identity?.identityId).toBe(identityId);
  });

  it("shows an empty state to a verified address that names no one, and files nothing for it", async () => {
    const tenant = await centerTenant();
    const session = await verifiedByEmail(tenant.projectId, uniqueEmail("nobody"));
    const person = await me(tenant.projectId, session);
    expect(person).toMatchObject({ identity: null, decisions: [], requests: [] });
    expectProblem(await center(tenant.projectId, "POST", "/requests", { body: { kind: "erasure" }, session }), 409, "no_identity");
  });

  it("stores codes hashed: 6 digits, never the code or the address", async () => {
    const tenant = await centerTenant();
    const email = uniqueEmail();
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address: email } }), 202);
    const code = await emailedCode(tenant.projectId, email);
    expect(code).toMatch(/^\d{6}$/);
    const [row] = await codeRows(tenant.projectId);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(code);
    expect(stored).not.toContain(email);
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(row.expires as string) - Date.parse(row.created as string)).toBe(10 * 60_000);
  });
});

describe("the hosted page", () => {
  it("serves the element for a project under a strict CSP, and 404 for no project", async () => {
    const tenant = await centerTenant();
    const page = await call("GET", `/privacy-center/${tenant.projectId}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.body).toContain(`<assent-privacy-center project="${tenant.projectId}"`);
    expect(page.body).toContain('src="/privacy-center/assent-privacy-center.js"');
    expect((await call("GET", "/privacy-center/prj_nothing")).status).toBe(404);
  });

  it("carries the configured Turnstile site key to the element, and lets Turnstile's script and frame in, only when challenges are on", async () => {
    const tenant = await centerTenant();
    const page = await call("GET", `/privacy-center/${tenant.projectId}`);
    const csp = page.headers.get("content-security-policy")!;
    // The site key is the deployment's (TURNSTILE_SITE_KEY, here Cloudflare's always-passing test key), not a constant.
    expect(page.body).toContain(`challenge-site-key="${env.TURNSTILE_SITE_KEY}"`);
    expect(csp).toContain("script-src 'self' https://challenges.cloudflare.com");
    expect(csp).toContain("frame-src https://challenges.cloudflare.com");
    // Without the keys nothing of Turnstile is on the page, and the CSP stays closed to it.
    const off = await fetchWithSettings({ TURNSTILE_SITE_KEY: undefined, TURNSTILE_SECRET_KEY: undefined }, new Request(`${origin}/privacy-center/${tenant.projectId}`));
    expect(off.status).toBe(200);
    expect(String(off.body)).not.toContain("challenge-site-key");
    expect(off.headers.get("content-security-policy")).not.toContain("challenges.cloudflare.com");
  });
});

describe("retention", () => {
  it("keeps a verification record for the project's retention, and codes a day past their expiry", async () => {
    const tenant = await centerTenant();
    await verifiedByEmail(tenant.projectId, uniqueEmail());
    const count = async (table: string) =>
      (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE project_id = ?`).bind(tenant.projectId).first<{ n: number }>())!.n;
    const day = 24 * 3600_000;
    await purgeVerifications(env, Date.now() + 29 * day);
    expect([await count("verifications"), await count("verification_codes")]).toEqual([1, 0]);
    await purgeVerifications(env, Date.now() + 31 * day);
    expect(await count("verifications")).toBe(0);
  });
});
