// The libraries integrators actually use, unmodified, against the Worker: each is given the Worker's own fetch
// handler (workerd, real D1/KV/queues) as its custom fetch, so nothing is stubbed and no port is opened.
// The issuer is http://assent.test, so each library is told that plain http is acceptable here.
import { exports } from "cloudflare:workers";
import { createRemoteJWKSet, customFetch as joseFetch, jwtVerify } from "jose";
import * as oauth from "oauth4webapi";
import * as openid from "openid-client";
import { Webhook } from "standardwebhooks";
import { describe, expect, it, vi } from "vitest";
import { newClient, newProject, newTenant, origin } from "./helpers";

/** What every library gets as its fetch: the Worker's fetch handler. */
const workerFetch = (url: string | URL, init?: RequestInit) => exports.default.fetch(new Request(url, init));
const issuer = new URL(origin);

/**
 * A 401 to a client that authenticated with HTTP Basic carries a `WWW-Authenticate: Basic` challenge (RFC 6749 §5.2,
 * RFC 9110 §11.6.1), so both libraries raise their challenge error and hand over the untouched response; its body
 * holds `error`. A client that sent its secret in the form gets no challenge and reads `error` directly.
 */
async function challengedError(thrown: unknown) {
  expect(thrown).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
  const challenge = thrown as oauth.WWWAuthenticateChallengeError;
  expect(challenge.cause[0]).toMatchObject({ scheme: "basic", parameters: { realm: "assent" } });
  return { status: challenge.status, ...((await challenge.response.json()) as { error: string }) };
}

async function backendClient() {
  const { projectId } = await newProject();
  return newClient(projectId);
}

describe("openid-client", () => {
  const configure = (clientId: string, auth: openid.ClientAuth, algorithm: "oidc" | "oauth2") =>
    openid.discovery(issuer, clientId, undefined, auth, {
      algorithm,
      execute: [openid.allowInsecureRequests],
      [openid.customFetch]: workerFetch,
    });

  const methods = { client_secret_basic: openid.ClientSecretBasic, client_secret_post: openid.ClientSecretPost };

  it.each([
    ["client_secret_basic", "oidc"],
    ["client_secret_post", "oauth2"],
  ] as const)("obtains a client-credentials token with %s (%s discovery)", async (method, algorithm) => {
    const { projectId, clientId, clientSecret } = await backendClient();
    const config = await configure(clientId, methods[method](clientSecret), algorithm);
    const tokens = await openid.clientCredentialsGrant(config, { scope: "identities:read" });
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.scope).toBe("identities:read");
    expect(tokens.expiresIn()).toBeGreaterThan(0);
    const reply = await workerFetch(`${origin}/privacy/v2/projects/${projectId}/identities/idn_missing`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(reply.status).toBe(404);
  });

  it("reads invalid_client for a bad secret and unsupported_grant_type for a bad grant", async () => {
    const { clientId, clientSecret } = await backendClient();
    const wrong = await configure(clientId, openid.ClientSecretBasic("as_wrong"), "oauth2");
    const badSecret = await openid.clientCredentialsGrant(wrong).catch((error: unknown) => error);
    expect(await challengedError(badSecret)).toMatchObject({ error: "invalid_client", status: 401 });
    const right = await configure(clientId, openid.ClientSecretPost(clientSecret), "oauth2");
    const badGrant = await openid.genericGrantRequest(right, "password", { username: "u", password: "p" }).catch((error: unknown) => error);
    expect(badGrant).toBeInstanceOf(openid.ResponseBodyError);
    expect(badGrant).toMatchObject({ error: "unsupported_grant_type", status: 400 });
  });
});

describe("oauth4webapi", () => {
  const options = { [oauth.customFetch]: workerFetch, [oauth.allowInsecureRequests]: true };
  const authorizationServer = async () =>
    oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: "oauth2" }));

  const methods = { client_secret_basic: oauth.ClientSecretBasic, client_secret_post: oauth.ClientSecretPost };

  it.each(["client_secret_basic", "client_secret_post"] as const)("obtains a client-credentials token with %s, valid as an RFC 9068 access token", async (method) => {
    const { clientId, clientSecret } = await backendClient();
    const as = await authorizationServer();
    const client = { client_id: clientId };
    const response = await oauth.clientCredentialsGrantRequest(as, client, methods[method](clientSecret), new URLSearchParams(), options);
    const tokens = await oauth.processClientCredentialsResponse(as, client, response);
    expect(tokens.token_type).toBe("bearer");
    // The library's own resource-server check: typ at+jwt, iss, aud, exp, client_id, signature by the remote JWKS.
    const request = new Request(`${origin}/privacy/v2`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    const claims = await oauth.validateJwtAccessToken(as, request, "assent-api", options);
    expect(claims).toMatchObject({ client_id: clientId, iss: origin });
  });

  it("reads invalid_client for a bad secret and unsupported_grant_type for a bad grant", async () => {
    const { clientId, clientSecret } = await backendClient();
    const as = await authorizationServer();
    const client = { client_id: clientId };
    const badSecretResponse = await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretPost("as_wrong"), new URLSearchParams(), options);
    const badSecret = await oauth.processClientCredentialsResponse(as, client, badSecretResponse).catch((error: unknown) => error);
    expect(badSecret).toBeInstanceOf(oauth.ResponseBodyError);
    expect(badSecret).toMatchObject({ error: "invalid_client", status: 401 });
    const badBasicResponse = await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretBasic("as_wrong"), new URLSearchParams(), options);
    const badBasic = await oauth.processClientCredentialsResponse(as, client, badBasicResponse).catch((error: unknown) => error);
    expect(await challengedError(badBasic)).toMatchObject({ error: "invalid_client", status: 401 });
    const badGrantResponse = await oauth.genericTokenEndpointRequest(as, client, oauth.ClientSecretBasic(clientSecret), "password", new URLSearchParams(), options);
    const badGrant = await oauth.processGenericTokenEndpointResponse(as, client, badGrantResponse).catch((error: unknown) => error);
    expect(badGrant).toBeInstanceOf(oauth.ResponseBodyError);
    expect(badGrant).toMatchObject({ error: "unsupported_grant_type", status: 400 });
  });
});

describe("jose", () => {
  it("verifies the access token through the remote JWKS named by the metadata", async () => {
    const { clientId, clientSecret } = await backendClient();
    const metadata = (await (await workerFetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as { jwks_uri: string };
    const config = await openid.discovery(issuer, clientId, undefined, openid.ClientSecretBasic(clientSecret), {
      execute: [openid.allowInsecureRequests],
      [openid.customFetch]: workerFetch,
    });
    const { access_token } = await openid.clientCredentialsGrant(config);
    const jwks = createRemoteJWKSet(new URL(metadata.jwks_uri), { [joseFetch]: workerFetch });
    const { payload, protectedHeader } = await jwtVerify(access_token, jwks, { issuer: origin, audience: "assent-api", typ: "at+jwt", algorithms: ["ES256"] });
    expect(protectedHeader.typ).toBe("at+jwt");
    expect(payload).toMatchObject({ client_id: clientId, sub: clientId });
  });
});

describe("standardwebhooks", () => {
  it("verifies a real delivery with the secret shown at subscription", async () => {
    const t = await newTenant();
    const key = crypto.randomUUID();
    const receiver = "https://hooks.customer.example";
    const hook = await t.api("POST", "/webhooks", { url: `${receiver}/ok/${key}`, events: ["identity.deleted"] });
    expect(hook.status).toBe(201);
    const identity = await t.api("POST", "/identities", {});
    expect((await t.api("DELETE", `/identities/${identity.body.identityId}`)).status).toBe(204);
    const [delivery] = await vi.waitFor(
      async () => {
        const received = (await (await fetch(`${receiver}/__log/${key}`)).json()) as { headers: Record<string, string>; body: string }[];
        expect(received.length).toBeGreaterThan(0);
        return received;
      },
      { timeout: 30_000, interval: 100 },
    );
    const payload = new Webhook(hook.body.secret).verify(delivery.body, delivery.headers) as { type: string; data: unknown };
    expect(payload).toMatchObject({ type: "identity.deleted", data: { identityId: identity.body.identityId } });
    // A tampered body is refused by the same library.
    expect(() => new Webhook(hook.body.secret).verify(delivery.body.replace("identity", "idëntity"), delivery.headers)).toThrow();
  });
});

describe("lost update", () => {
  it("refuses the second editor's stale If-Match with 412 and keeps the first editor's change", async () => {
    const t = await newTenant();
    const created = await t.api("POST", "/configurations/data-groups", { referenceId: "contact", name: "Contact details" });
    const path = `/privacy/v2/projects/${t.projectId}/configurations/data-groups/${created.body.dataGroupId}`;
    const read = () => workerFetch(origin + path, { headers: { authorization: `Bearer ${t.token}` } });
    const save = (etag: string, name: string) =>
      workerFetch(origin + path, {
        method: "PUT",
        headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json", "if-match": etag },
        body: JSON.stringify({ referenceId: "contact", name }),
      });
    const [first, second] = [await read(), await read()];
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(second.headers.get("etag")).toBe(etag);
    expect((await save(etag, "First editor")).status).toBe(200);
    const stale = await save(etag, "Second editor");
    expect(stale.status).toBe(412);
    expect(stale.headers.get("content-type")).toBe("application/problem+json");
    expect(await stale.json()).toMatchObject({ status: 412, code: "precondition_failed" });
    expect(await (await read()).json()).toMatchObject({ name: "First editor" });
  });
});
