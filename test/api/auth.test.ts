import { env } from "cloudflare:workers";
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { admin, call, expectOAuthError, expectProblem, form, newClient, newProject, newTenant, origin, problemOf, tokenFor } from "./helpers";


describe("discovery", () => {
  it("publishes issuer, absolute endpoints and public keys only", async () => {
    const config = await call("GET", "/.well-known/openid-configuration");
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({
      issuer: origin,
      token_endpoint: `${origin}/oauth/token`,
      jwks_uri: `${origin}/.well-known/jwks.json`,
      grant_types_supported: ["client_credentials"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    });
    const jwks = await call("GET", "/.well-known/jwks.json");
    expect(jwks.body.keys).toHaveLength(1);
    expect(jwks.body.keys[0]).toMatchObject({ kty: "EC", crv: "P-256", kid: "test-1", alg: "ES256" });
    expect(jwks.body.keys[0]).not.toHaveProperty("d");
  });
});

describe("token endpoint", () => {
  it("issues an ES256 JWT with the registered and Assent claims", async () => {
    const { projectId } = await newProject();
    const { clientId, clientSecret } = await newClient(projectId, "ios");
    const reply = await call("POST", "/oauth/token", form({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }));
    expect(reply.status).toBe(200);
    expect(reply.headers.get("cache-control")).toBe("no-store");
    expect(reply.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, refresh_expires_in: 0 });
    expect(reply.body).not.toHaveProperty("refresh_token");
    expect(decodeProtectedHeader(reply.body.access_token)).toMatchObject({ alg: "ES256", kid: "test-1" });
    const claims = decodeJwt(reply.body.access_token);
    expect(claims).toMatchObject({ iss: origin, sub: clientId, aud: "assent-api", pid: projectId, ctp: "ios" });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(claims.jti).toBe(reply.body.session_state);
  });

  it("accepts HTTP Basic with form-urlencoded id and secret", async () => {
    const { projectId } = await newProject();
    const { clientId, clientSecret } = await newClient(projectId);
    const basic = btoa(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`);
    const reply = await call("POST", "/oauth/token", {
      ...form({ grant_type: "client_credentials" }),
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}` },
    });
    expect(reply.status).toBe(200);
  });

  it("answers RFC 6749 errors", async () => {
    const { projectId } = await newProject();
    const { clientId, clientSecret } = await newClient(projectId);
    const wrongSecret = await call("POST", "/oauth/token", form({ grant_type: "client_credentials", client_id: clientId, client_secret: "as_wrong" }));
    expectOAuthError(wrongSecret, 401, "invalid_client");
    expect(problemOf(wrongSecret).error).toBe("invalid_client");
    // The secret came in the form, not the Authorization header: no Basic challenge (RFC 6749 §5.2).
    expect(wrongSecret.headers.get("www-authenticate")).toBeNull();
    const unknownClient = await call("POST", "/oauth/token", form({ grant_type: "client_credentials", client_id: "cli_nope", client_secret: clientSecret }));
    expectOAuthError(unknownClient, 401, "invalid_client");
    const password = await call("POST", "/oauth/token", form({ grant_type: "password", client_id: clientId, client_secret: clientSecret }));
    expectOAuthError(password, 400, "unsupported_grant_type");
    const noGrant = await call("POST", "/oauth/token", form({ client_id: clientId, client_secret: clientSecret }));
    expectOAuthError(noGrant, 400, "invalid_request");
  });

  it("kills the old secret at once when it is regenerated, and its tokens with it", async () => {
    const { projectId } = await newProject();
    const { clientId, clientSecret } = await newClient(projectId);
    const oldToken = await tokenFor(clientId, clientSecret);
    expect((await call("GET", `/privacy/v2/projects/${projectId}`, { token: oldToken })).status).toBe(200);
    const regenerated = await admin("POST", `/projects/${projectId}/clients/${clientId}/secret`);
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.clientSecret).not.toBe(clientSecret);
    const old = await call("POST", "/oauth/token", form({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }));
    expectOAuthError(old, 401, "invalid_client");
    expectProblem(await call("GET", `/privacy/v2/projects/${projectId}`, { token: oldToken }), 401, "unauthorized");
    const fresh = await tokenFor(clientId, regenerated.body.clientSecret);
    expect((await call("GET", `/privacy/v2/projects/${projectId}`, { token: fresh })).status).toBe(200);
  });

  it("stores only a hash of the secret", async () => {
    const { projectId } = await newProject();
    const { clientId, clientSecret } = await newClient(projectId);
    const row = await env.DB.prepare("SELECT * FROM clients WHERE id = ?").bind(clientId).first<Record<string, unknown>>();
    expect(JSON.stringify(row)).not.toContain(clientSecret);
    expect(row!.secret_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("bearer verification", () => {
  const path = (projectId: string) => `/privacy/v2/projects/${projectId}`;

  it("refuses a missing, tampered, unsigned, foreign-key or expired token with WWW-Authenticate", async () => {
    const { projectId, token, clientId } = await newTenant();
    const missing = await call("GET", path(projectId));
    expectProblem(missing, 401, "unauthorized");
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);

    const [header, payload, signature] = token.split(".");
    const claims = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/")));
    const forged = btoa(JSON.stringify({ ...claims, pid: "prj_other" })).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
    expectProblem(await call("GET", path(projectId), { token: `${header}.${forged}.${signature}` }), 401, "unauthorized");

    const none = btoa(JSON.stringify({ alg: "none", kid: "test-1" })).replace(/=+$/, "");
    expectProblem(await call("GET", path(projectId), { token: `${none}.${payload}.` }), 401, "unauthorized");

    const { privateKey } = await generateKeyPair("ES256");
    const strangerSigned = await new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid: "test-1" }).sign(privateKey);
    expectProblem(await call("GET", path(projectId), { token: strangerSigned }), 401, "unauthorized");

    const [signingJwk] = JSON.parse(env.SIGNING_KEYS);
    const { importJWK } = await import("jose");
    const realKey = await importJWK(signingJwk, "ES256");
    const expired = await new SignJWT({ ...claims, jti: "tok_expired" })
      .setProtectedHeader({ alg: "ES256", kid: "test-1" })
      .setIssuedAt(claims.iat - 7200)
      .setExpirationTime(claims.iat - 3600)
      .sign(realKey);
    const expiredReply = await call("GET", path(projectId), { token: expired });
    expectProblem(expiredReply, 401, "unauthorized");
    expect(problemOf(expiredReply).detail).toMatch(/expired/);

    const wrongAudience = await new SignJWT({ ...claims, aud: "someone-else", jti: "tok_aud" })
      .setProtectedHeader({ alg: "ES256", kid: "test-1" })
      .sign(realKey);
    expectProblem(await call("GET", path(projectId), { token: wrongAudience }), 401, "unauthorized");

    const hs = await new SignJWT({ ...claims, jti: "tok_hs" })
      .setProtectedHeader({ alg: "HS256", kid: "test-1" })
      .sign(new TextEncoder().encode(JSON.stringify(await exportJWK((await generateKeyPair("ES256", { extractable: true })).publicKey))));
    expectProblem(await call("GET", path(projectId), { token: hs }), 401, "unauthorized");

    // The genuine token still works, so the refusals above are about the tokens, not the route.
    expect((await call("GET", path(projectId), { token })).status).toBe(200);
    expect(clientId).toMatch(/^cli_/);
  });

  it("answers another project's id exactly as a missing project", async () => {
    const mine = await newTenant();
    const theirs = await newTenant();
    const foreign = await call("GET", path(theirs.projectId), { token: mine.token });
    const missing = await call("GET", path("prj_doesnotexist"), { token: mine.token });
    expectProblem(foreign, 404, "not_found");
    expect(foreign.body).toEqual(missing.body);
  });

  it("refuses project tokens on the admin API and admin tokens on the privacy API", async () => {
    const { projectId, token } = await newTenant();
    expectProblem(await call("GET", "/admin/v1/projects", { token }), 401, "unauthorized");
    expectProblem(await call("GET", path(projectId), { token: "test-admin-token" }), 401, "unauthorized");
  });

  it("refuses tokens of a deleted client", async () => {
    const { projectId } = await newProject();
    const { clientId, clientSecret } = await newClient(projectId);
    const token = await tokenFor(clientId, clientSecret);
    expect((await admin("DELETE", `/projects/${projectId}/clients/${clientId}`)).status).toBe(204);
    expectProblem(await call("GET", path(projectId), { token }), 401, "unauthorized");
  });
});
