// What off-the-shelf OAuth 2.0 clients rely on (RFC 8414 metadata, RFC 6749 §5.2 errors as application/json,
// RFC 6750 challenges): each case failed before the change that made it hold.
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
