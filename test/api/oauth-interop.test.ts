// What off-the-shelf OAuth 2.0 clients rely on (RFC 8414 metadata, RFC 6749 §5.2 errors as application/json,
// RFC 6750 challenges): each case failed before the change that made it hold.
import { exports } from "cloudflare:workers";
import * as oauth from "oauth4webapi";
import * as openid from "openid-client";
import { describe, expect, it } from "vitest";
import { call, form, newClient, newProject, origin, problemOf } from "./helpers";

describe("authorization server metadata", () => {
  it("is served at the RFC 8414 location, names only what is implemented, and matches the OIDC discovery document", async () => {
    const metadata = await call("GET", "/.well-known/oauth-authorization-server");
    expect(metadata.status).toBe(200);
    expect(metadata.body).toMatchObject({
      issuer: origin,
      token_endpoint: `${origin}/oauth/token`,
      jwks_uri: `${origin}/.well-known/jwks.json`,
      grant_types_supported: ["client_credentials"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      response_types_supported: [],
      service_documentation: `${origin}/docs`,
    });
    // No authorization endpoint, no id_token, no implicit grant: none of them is advertised.
    expect(metadata.body).not.toHaveProperty("authorization_endpoint");
    expect(metadata.body).not.toHaveProperty("id_token_signing_alg_values_supported");
    const discovery = await call("GET", "/.well-known/openid-configuration");
    expect(discovery.body).toEqual(metadata.body);
  });
});

describe("token endpoint errors (RFC 6749 §5.2)", () => {
  it("are application/json with error and error_description, the problem fields riding along", async () => {
    const { projectId } = await newProject();
    const { clientId } = await newClient(projectId);
    const badSecret = await call("POST", "/oauth/token", form({ grant_type: "client_credentials", client_id: clientId, client_secret: "as_wrong" }));
    expect(badSecret.status).toBe(401);
    expect(badSecret.headers.get("content-type")).toMatch(/^application\/json/);
    expect(badSecret.body).toMatchObject({ error: "invalid_client", error_description: expect.any(String), code: "invalid_client" });
    const badGrant = await call("POST", "/oauth/token", form({ grant_type: "password", client_id: clientId, client_secret: "as_wrong" }));
    expect(badGrant.status).toBe(400);
    expect(badGrant.headers.get("content-type")).toMatch(/^application\/json/);
    expect(badGrant.body).toMatchObject({ error: "unsupported_grant_type" });
  });

  it("answer a JSON body with invalid_request, not a bare 415", async () => {
    const reply = await call("POST", "/oauth/token", { body: { grant_type: "client_credentials", client_id: "c", client_secret: "s" } });
    expect(reply.status).toBe(400);
    expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
    expect(reply.body).toMatchObject({ error: "invalid_request" });
    expect(problemOf(reply).error_description).toContain("application/x-www-form-urlencoded");
  });
});

describe("bearer challenges (RFC 6750 §3)", () => {
  it("carry no error code when no credentials were sent, and invalid_token for a bad token", async () => {
    const { projectId } = await newProject();
    const missing = await call("GET", `/privacy/v2/projects/${projectId}/identities/idn_x`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="assent"');
    const bad = await call("GET", `/privacy/v2/projects/${projectId}/identities/idn_x`, { token: "not-a-jwt" });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toMatch(/^Bearer realm="assent", error="invalid_token"/);
  });
});

describe("invalid_client through client_secret_post (RFC 6749 §5.2)", () => {
  // The Basic challenge belongs to a client that authenticated with the Authorization header; one that sent its
  // secret in the form gets a plain 401, so libraries read `error` from the body instead of raising a challenge.
  const workerFetch = (url: string | URL, init?: RequestInit) => exports.default.fetch(new Request(url, init));
  const issuer = new URL(origin);

  it("carries no challenge, and a Basic challenge when the client used HTTP Basic", async () => {
    const { projectId } = await newProject();
    const { clientId } = await newClient(projectId);
    const post = await call("POST", "/oauth/token", form({ grant_type: "client_credentials", client_id: clientId, client_secret: "as_wrong" }));
    expect(post.status).toBe(401);
    expect(post.body).toMatchObject({ error: "invalid_client" });
    expect(post.headers.get("www-authenticate")).toBeNull();
    const basic = await call("POST", "/oauth/token", {
      ...form({ grant_type: "client_credentials" }),
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa(`${clientId}:as_wrong`)}` },
    });
    expect(basic.status).toBe(401);
    expect(basic.headers.get("www-authenticate")).toMatch(/^Basic realm="assent"/);
  });

  it("is read as invalid_client by openid-client", async () => {
    const { projectId } = await newProject();
    const { clientId } = await newClient(projectId);
    const config = await openid.discovery(issuer, clientId, undefined, openid.ClientSecretPost("as_wrong"), {
      algorithm: "oauth2",
      execute: [openid.allowInsecureRequests],
      [openid.customFetch]: workerFetch,
    });
    const thrown = await openid.clientCredentialsGrant(config).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(openid.ResponseBodyError);
    expect(thrown).toMatchObject({ error: "invalid_client", status: 401 });
  });

  it("is read as invalid_client by oauth4webapi", async () => {
    const { projectId } = await newProject();
    const { clientId } = await newClient(projectId);
    const options = { [oauth.customFetch]: workerFetch, [oauth.allowInsecureRequests]: true };
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: "oauth2" }));
    const client = { client_id: clientId };
    const response = await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretPost("as_wrong"), new URLSearchParams(), options);
    const thrown = await oauth.processClientCredentialsResponse(as, client, response).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(oauth.ResponseBodyError);
    expect(thrown).toMatchObject({ error: "invalid_client", status: 401 });
  });
});
