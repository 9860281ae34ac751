import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { bootstrap, identityCount, localBootstrap, siteOrigin, widgetTenant, type WidgetTenant } from "./bootstrap-fixture";
import { admin, call, expectProblem, newProject, openApiDocument, problemOf, tokenFor } from "./helpers";

const california = { country: "US", regionCode: "CA" };
const germany = { country: "DE", regionCode: "BE" };

async function sha256Hex(value: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

describe("bootstrap: a first visit", () => {
  let tenant: WidgetTenant;
  beforeAll(async () => {
    tenant = await widgetTenant();
  });

  it("answers a text/plain simple request with regime, configuration in one language, fingerprint, Consent Mode, token and no state", async () => {
    const before = await identityCount(tenant.projectId);
    const reply = await bootstrap(tenant.projectId, { body: { languages: ["sv-SE", "en"] }, cf: germany });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("cache-control")).toBe("no-store");
    expect(reply.headers.get("access-control-allow-origin")).toBe(siteOrigin);
    const body = reply.body;
    expect(body.regime).toEqual({ name: "opt-in", country: "DE", region: "BE", gpc: false, gpcApplied: false, prescribed: [] });
    expect(body.language).toBe("sv");
    const [marketing, analytics] = body.configuration.purposes;
    expect(marketing).toMatchObject({ purposeId: tenant.marketing, description: [{ language: "sv", text: "Erbjudanden för dig." }] });
    expect(marketing.consentMode).toEqual(["ad_storage", "ad_user_data", "ad_personalization"]);
    expect(marketing.dataGroups[0].description).toEqual([{ language: "sv", text: "Din e-postadress." }]);
    expect(marketing.recipients[0].details.description).toEqual([{ language: "sv", text: "ad-partner på svenska" }]);
    expect(analytics.consentMode).toEqual(["analytics_storage"]);
    expect(body.fingerprint).toBe(await sha256Hex([tenant.marketing, tenant.analytics].sort().map((id) => `${id}:1`).join(",")));
    expect(body.consentMode).toMatchObject({ enabled: false, waitForUpdate: 500, urlPassthrough: false, adsDataRedaction: true });
    expect(body.state).toBeNull();
    expect(body.token).toMatchObject({ token_type: "Bearer", expires_in: 900 });
    expect(body.token!.visitorKey).toMatch(/^avk_/);
    expect(decodeJwt(body.token!.access_token)).toMatchObject({ idn: body.token!.identityId, pid: tenant.projectId, ctp: "web" });
    expect(await identityCount(tenant.projectId)).toBe(before + 1);
  });

  it("mints exactly one identity per call, however many run at once", async () => {
    const before = await identityCount(tenant.projectId);
    const replies = await Promise.all(Array.from({ length: 20 }, () => bootstrap(tenant.projectId)));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(replies.map((r) => r.body.token!.identityId)).size).toBe(20);
    expect(await identityCount(tenant.projectId)).toBe(before + 20);
  });

  it("resolves concurrent calls with one visitor key to that one identity, creating none", async () => {
    const first = await bootstrap(tenant.projectId);
    const { identityId, visitorKey } = first.body.token!;
    const before = await identityCount(tenant.projectId);
    const replies = await Promise.all(Array.from({ length: 20 }, () => bootstrap(tenant.projectId, { body: { visitorKey } })));
    expect(new Set(replies.map((r) => r.body.token!.identityId))).toEqual(new Set([identityId]));
    expect(replies.every((r) => r.body.token!.visitorKey === visitorKey)).toBe(true);
    expect(replies[0].body.state).toMatchObject({ identityId, purposes: [] });
    expect(await identityCount(tenant.projectId)).toBe(before);
  });

  it("returns a returning visitor's state", async () => {
    const first = await bootstrap(tenant.projectId);
    const { identityId, visitorKey, access_token } = first.body.token!;
    const recorded = await call("POST", `/privacy/v2/projects/${tenant.projectId}/permissions`, {
      token: access_token,
      headers: { origin: siteOrigin },
      body: { identityId, requested: new Date().toISOString(), request: { purposes: [{ purposeId: tenant.marketing, status: "approved" }] } },
    });
    expect(recorded.status).toBe(201);
    const again = await bootstrap(tenant.projectId, { body: { visitorKey } });
    expect(again.body.state!.purposes).toMatchObject([{ purposeId: tenant.marketing, status: "approved", version: "1" }]);
  });

  it("accepts text/plain on the bootstrap only", async () => {
    const mint = await call("POST", `/browser/v1/projects/${tenant.projectId}/visitor-tokens`, {
      rawBody: "{}",
      headers: { origin: siteOrigin, "content-type": "text/plain;charset=UTF-8" },
    });
    expectProblem(mint, 415, "unsupported_media_type");
    const json = await call("POST", `/browser/v1/projects/${tenant.projectId}/bootstrap`, { body: {}, headers: { origin: siteOrigin } });
    expect(json.status).toBe(200);
    const malformed = await bootstrap(tenant.projectId, { body: undefined, headers: {} }).then(() =>
      call("POST", `/browser/v1/projects/${tenant.projectId}/bootstrap`, {
        rawBody: "{not json",
        headers: { origin: siteOrigin, "content-type": "text/plain" },
      }),
    );
    expectProblem(malformed, 400, "malformed_json");
    const unknownField = await bootstrap(tenant.projectId, { body: { visitor: "x" } });
    expectProblem(unknownField, 400, "validation_failed");
    const badKey = await bootstrap(tenant.projectId, { body: { visitorKey: "nope", languages: ["not a tag"] } });
    expectProblem(badKey, 400, "validation_failed");
    expect(problemOf(badKey).errors!.map((e: { path: string }) => e.path).sort()).toEqual(["languages.0", "visitorKey"]);
  });

  it("refuses to mint for an unregistered origin (403) or an unknown project (404)", async () => {
    expectProblem(await bootstrap(tenant.projectId, { origin: "https://evil.example" }), 403, "origin_not_allowed");
    expectProblem(await bootstrap(tenant.projectId, { origin: "null" }), 403, "origin_not_allowed");
    expectProblem(await bootstrap(tenant.projectId, { origin: null }), 403, "origin_not_allowed");
    expectProblem(await bootstrap("prj_unknown"), 404, "not_found");
    const empty = await newProject();
    expectProblem(await bootstrap(empty.projectId), 403, "origin_not_allowed");
  });

  it("answers a page on an unregistered origin with a refusal it can read (CORS): the origin and where to register it", async () => {
    const page = "https://unlisted.example";
    const refused = await bootstrap(tenant.projectId, { origin: page });
    expectProblem(refused, 403, "origin_not_allowed");
    expect(refused.headers.get("access-control-allow-origin")).toBe(page);
    expect(refused.headers.get("access-control-allow-credentials")).toBeNull();
    expect(refused.headers.get("vary")).toContain("Origin");
    expect(problemOf(refused).detail).toContain(page);
    expect(problemOf(refused).detail).toContain(`http://assent.test/portal/projects/${tenant.projectId}/clients`);
    expect(refused.body).not.toHaveProperty("token");
  });
});

describe("bootstrap: languages", () => {
  let tenant: WidgetTenant;
  beforeAll(async () => {
    tenant = await widgetTenant();
  });
  const descriptionLanguage = (reply: { body: any }) => reply.body.configuration.purposes[0].description[0].language;

  it("takes the page's list first, then Accept-Language, then the project's default", async () => {
    // Languages the widget speaks: Finnish is shipped, so a Finnish visitor reads the dialog in Finnish, with the
    // project's texts in its default language where it has none in Finnish.
    const listed = await bootstrap(tenant.projectId, { body: { languages: ["tlh", "fi-FI", "sv"] }, headers: { "accept-language": "sv" } });
    expect(listed.body.language).toBe("fi");
    expect(descriptionLanguage(listed)).toBe("en");
    const header = await bootstrap(tenant.projectId, { headers: { "accept-language": "tlh,sv-SE;q=0.8,en;q=0.5" } });
    expect(header.body.language).toBe("sv");
    expect(descriptionLanguage(header)).toBe("sv");
    const afterTheList = await bootstrap(tenant.projectId, { body: { languages: ["tlh"] }, headers: { "accept-language": "sv" } });
    expect(afterTheList.body.language).toBe("sv");
    const unknown = await bootstrap(tenant.projectId, { body: { languages: ["tlh"] } });
    expect(unknown.body.language).toBe("en");
    expect(descriptionLanguage(unknown)).toBe("en");
    expect(unknown.body.configuration.purposes[0].description).toHaveLength(1);
  });

  it("reads Accept-Language by quality, not position, and never picks a refused (q=0) or malformed range", async () => {
    const cases: [string, string][] = [
      ["en;q=0.1, sv;q=0.9", "sv"],
      ["sv;q=0, en", "en"],
      ["sv;q=0", "en"],
      ["*, sv;q=0.5", "sv"],
      ["sv_SE, en;q=0.5", "en"],
      ["SV-se;q=0.7, tlh", "sv"],
    ];
    for (const [header, expected] of cases) {
      expect((await bootstrap(tenant.projectId, { headers: { "accept-language": header } })).body.language, header).toBe(expected);
    }
  });
});

describe("bootstrap with a bearer token", () => {
  let tenant: WidgetTenant;
  beforeAll(async () => {
    tenant = await widgetTenant();
  });

  async function nativeToken() {
    const identity = await tenant.api("POST", "/identities", { referenceId: `app-user-${crypto.randomUUID()}` });
    expect(identity.status).toBe(201);
    const minted = await tenant.api("POST", `/identities/${identity.body.identityId}/tokens`);
    expect(minted.status).toBe(200);
    return { identityId: identity.body.identityId as string, token: minted.body.access_token as string };
  }

  it("works from Origin null (file:// webview): the bearer identity's state, no token minted", async () => {
    const { identityId, token } = await nativeToken();
    const before = await identityCount(tenant.projectId);
    const reply = await bootstrap(tenant.projectId, { token, origin: "null", body: { visitorKey: "avk_" + "A".repeat(43) } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("access-control-allow-origin")).toBe("null");
    expect(reply.body.token).toBeUndefined();
    expect(reply.body.state).toMatchObject({ identityId, purposes: [] });
    expect(await identityCount(tenant.projectId)).toBe(before);
    const preflight = await call("OPTIONS", `/browser/v1/projects/${tenant.projectId}/bootstrap`, {
      headers: { origin: "null", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("null");
  });

  it("answers 401 for a bad token and 404 for a token of another project", async () => {
    expectProblem(await bootstrap(tenant.projectId, { token: "not-a-token", origin: "null" }), 401, "unauthorized");
    const other = await widgetTenant();
    const { token } = await nativeToken();
    expectProblem(await bootstrap(other.projectId, { token }), 404, "not_found");
  });
});

describe("bootstrap: optional access", () => {
  let tenant: WidgetTenant;
  beforeAll(async () => {
    tenant = await widgetTenant();
  });

  it("declares it in its OpenAPI entry: a token with consent-config:read, or no credential", async () => {
    const doc = (await openApiDocument()).body;
    expect(doc.paths["/browser/v1/projects/{project_id}/bootstrap"].post.security).toEqual([{ oauth2: ["consent-config:read"] }, {}]);
  });

  it("answers without a token: the visitor's token is minted", async () => {
    const reply = await bootstrap(tenant.projectId);
    expect(reply.status).toBe(200);
    expect(reply.body.token!.identityId).toMatch(/^idn_/);
  });

  it("answers with a valid token: its identity's state, nothing minted", async () => {
    const identity = await tenant.api("POST", "/identities", { referenceId: `reader-${crypto.randomUUID()}` });
    const minted = await tenant.api("POST", `/identities/${identity.body.identityId}/tokens`);
    const reply = await bootstrap(tenant.projectId, { token: minted.body.access_token });
    expect(reply.status).toBe(200);
    expect(reply.body.token).toBeUndefined();
    expect(reply.body.state).toMatchObject({ identityId: identity.body.identityId });
  });

  it("refuses a token that is sent but not valid, before looking at the project (401, as every route)", async () => {
    const reply = await bootstrap("prj_unknown", { token: "not-a-token", origin: "null" });
    expectProblem(reply, 401, "unauthorized");
    expect(reply.headers.get("www-authenticate")).toMatch(/^Bearer realm="assent"/);
  });

  it("refuses a token without consent-config:read with the access check's challenge", async () => {
    const narrow = await admin("POST", `/projects/${tenant.projectId}/clients`, { name: "narrow", type: "backend", scopes: ["config:read"] });
    const token = await tokenFor(narrow.body.clientId, narrow.body.clientSecret);
    const reply = await bootstrap(tenant.projectId, { token });
    expectProblem(reply, 403, "insufficient_scope");
    expect(reply.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
  });
});

describe("bootstrap: GPC", () => {
  let tenant: WidgetTenant;
  beforeAll(async () => {
    tenant = await widgetTenant();
  });

  const permissionsOf = async (identityId: string) =>
    (await tenant.api("GET", `/permissions?identityId=${identityId}`)).body.items as Array<{ meta: any; request: any }>;

  it("records the opt-out of sale and sharing under an opt-out regime, in meta.context.gpc, once", async () => {
    const reply = await bootstrap(tenant.projectId, { cf: california, headers: { "sec-gpc": "1" } });
    expect(reply.status).toBe(200);
    expect(reply.body.regime).toMatchObject({ name: "opt-out", country: "US", region: "CA", gpc: true, gpcApplied: true });
    const { identityId, visitorKey } = reply.body.token!;
    // Only the consent purpose that shares data with a recipient and stands for Google's ad types.
    expect(reply.body.state!.purposes).toMatchObject([{ purposeId: tenant.marketing, status: "denied" }]);
    const recorded = await permissionsOf(identityId);
    expect(recorded).toHaveLength(1);
    expect(recorded[0].meta.context).toMatchObject({ gpc: true, collectionMethod: "global-privacy-control" });
    expect(recorded[0].request.purposes).toMatchObject([{ purposeId: tenant.marketing, status: "denied" }]);
    const again = await bootstrap(tenant.projectId, { cf: california, headers: { "sec-gpc": "1" }, body: { visitorKey } });
    expect(again.body.regime.gpcApplied).toBe(true);
    expect(await permissionsOf(identityId)).toHaveLength(1);
  });

  it("leaves a decision the visitor made themselves standing", async () => {
    const first = await bootstrap(tenant.projectId, { cf: california });
    const { identityId, visitorKey, access_token } = first.body.token!;
    await call("POST", `/privacy/v2/projects/${tenant.projectId}/permissions`, {
      token: access_token,
      body: { identityId, requested: new Date().toISOString(), request: { purposes: [{ purposeId: tenant.marketing, status: "approved" }] } },
    });
    const withGpc = await bootstrap(tenant.projectId, { cf: california, headers: { "sec-gpc": "1" }, body: { visitorKey } });
    expect(withGpc.body.regime).toMatchObject({ gpc: true, gpcApplied: false });
    expect(await permissionsOf(identityId)).toHaveLength(1);
  });

  it("records nothing under opt-in or notice regimes", async () => {
    for (const cf of [germany, { country: "BR" }]) {
      const reply = await bootstrap(tenant.projectId, { cf, headers: { "sec-gpc": "1" } });
      expect(reply.body.regime).toMatchObject({ gpc: true, gpcApplied: false });
      expect(reply.body.regime.name).not.toBe("opt-out");
      expect(await permissionsOf(reply.body.token!.identityId)).toHaveLength(0);
    }
  });

  it("serves /.well-known/gpc.json", async () => {
    const reply = await call("GET", "/.well-known/gpc.json");
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toContain("application/json");
    expect(reply.body).toEqual({ gpc: true, lastUpdate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
  });
});

describe("bootstrap: forcing the regime", () => {
  let tenant: WidgetTenant;
  beforeAll(async () => {
    tenant = await widgetTenant();
  });

  const local = (body: unknown, headers: Record<string, string> = {}) =>
    localBootstrap(tenant.projectId, { body, headers, cf: california });

  it("is ignored outside local development", async () => {
    const reply = await bootstrap(tenant.projectId, { cf: california, body: { regime: "opt-in" }, headers: { "x-assent-regime": "notice" } });
    expect(reply.body.regime.name).toBe("opt-out");
  });

  it("is honoured with LOCAL_DEV, from the body or the X-Assent-Regime header", async () => {
    expect((await local({ regime: "opt-in" })).regime.name).toBe("opt-in");
    expect((await local({}, { "x-assent-regime": "notice" })).regime.name).toBe("notice");
    expect((await local({}, { "x-assent-regime": "bogus" })).regime.name).toBe("opt-out");
  });
});

describe("GET /privacy/v1/configurations caching", () => {
  let tenant: WidgetTenant;
  beforeAll(async () => {
    tenant = await widgetTenant();
  });

  it("answers with an ETag, a deliberate Cache-Control and 304 for If-None-Match", async () => {
    const first = await call("GET", "/privacy/v1/configurations", { token: tenant.token });
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const same = await call("GET", "/privacy/v1/configurations", { token: tenant.token, headers: { "if-none-match": etag } });
    expect(same.status).toBe(304);
    expect(same.body).toBeNull();
    expect(same.headers.get("etag")).toBe(etag);
    const weak = await call("GET", "/privacy/v1/configurations", { token: tenant.token, headers: { "if-none-match": `"x", W/${etag}` } });
    expect(weak.status).toBe(304);
    await tenant.api("PUT", `/configurations/purposes/${tenant.analytics}`, {
      referenceId: "analytics",
      name: "Analytics, renamed",
      legalGround: "legitimate_interests",
      controllers: [tenant.controller],
      requireNewConsent: false,
    });
    const changed = await call("GET", "/privacy/v1/configurations", { token: tenant.token, headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect(changed.body.purposes[1].name).toBe("Analytics, renamed");
  });
});
