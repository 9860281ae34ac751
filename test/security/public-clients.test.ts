// Finding: a web, ios or android client's token (their secrets sit in page source and app binaries) had a backend's
// rights: it listed every permission, exported any identity's data, edited purposes, deleted identities, posted
// erasures. Public clients now read the configuration, create anonymous identities (receiving a token scoped to
// each) and act through identity-scoped tokens; clients can be narrowed further; the token endpoint honours `scope`.
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { admin, call, expectOAuthError, expectProblem, newClient, newProject, problemOf } from "../api/helpers";
import { clientToken, tokenFor } from "./callers";

const publicTypes = ["web", "ios", "android"] as const;

async function homeWithHistory() {
  const { projectId } = await newProject();
  const backend = await clientToken(projectId, "backend");
  const api = <M extends string, P extends string>(method: M, path: P, body?: unknown, token = backend.token) =>
    call(method, `/privacy/v2/projects/${projectId}${path}`, { body, token });
  const identityId = (await api("POST", "/identities", { referenceId: "alice" })).body.identityId as string;
  return { projectId, backend, api, identityId };
}

describe.each(publicTypes)("a %s client's token", (type) => {
  it("cannot read, export, change or erase what belongs to data subjects", async () => {
    const { projectId, api, identityId } = await homeWithHistory();
    const { token } = await clientToken(projectId, type);
    for (const [method, path, body] of [
      ["GET", "/permissions"],
      ["GET", `/identities/${identityId}/data`],
      ["GET", `/identities/${identityId}`],
      ["DELETE", `/identities/${identityId}`],
      ["POST", "/erasures", { identityId }],
      ["POST", "/configurations/purposes", { referenceId: "x", name: "x", legalGround: "consent", controllers: [] }],
      ["POST", `/identities/${identityId}/tokens`],
      ["GET", "/webhooks"],
    ] as const) {
      expectProblem(await api(method, path, body, token), 403, "insufficient_scope");
    }
    expect((await api("GET", `/identities/${identityId}`)).status).toBe(200);
  });

  it("reads the configuration and creates anonymous identities, each with a token scoped to it", async () => {
    const { projectId, api } = await homeWithHistory();
    const { token } = await clientToken(projectId, type);
    expect((await call("GET", "/privacy/v1/configurations", { token })).status).toBe(200);
    const created = await api("POST", "/identities", {}, token);
    expect(created.status).toBe(201);
    const scoped = created.body.token!.access_token as string;
    expect(decodeJwt(scoped)).toMatchObject({ idn: created.body.identityId, scope: "consent-config:read identities:read consents:write" });
    expect((await api("GET", `/identities/${created.body.identityId}`, undefined, scoped)).status).toBe(200);
    // No aliases or referenceId: a 409 would tell a public caller who is stored.
    expectProblem(await api("POST", "/identities", { referenceId: "alice" }, token), 403, "insufficient_scope");
  });
});

describe("scopes of clients and tokens", () => {
  it("gives tokens RFC 9068's scope and client_id, and the granted scope in the response", async () => {
    const { projectId } = await newProject();
    const web = await newClient(projectId, "web");
    const reply = await tokenFor(web.clientId, web.clientSecret);
    expect(reply.body.scope).toBe("consent-config:read config:read identities:create");
    expect(decodeJwt(reply.body.access_token)).toMatchObject({ client_id: web.clientId, sub: web.clientId, scope: reply.body.scope });
  });

  it("honours the scope parameter, refusing scopes the client does not hold with invalid_scope", async () => {
    const { projectId } = await newProject();
    const backend = await newClient(projectId, "backend");
    const narrow = await tokenFor(backend.clientId, backend.clientSecret, "config:read");
    expect(narrow.body.scope).toBe("config:read");
    const token = narrow.body.access_token;
    expect((await call("GET", `/privacy/v2/projects/${projectId}/configurations/purposes`, { token })).status).toBe(200);
    expectProblem(await call("GET", `/privacy/v2/projects/${projectId}/permissions`, { token }), 403, "insufficient_scope");
    const web = await newClient(projectId, "web");
    const refused = await tokenFor(web.clientId, web.clientSecret, "config:read requests:read");
    expectOAuthError(refused, 400, "invalid_scope");
    expect(problemOf(refused).error).toBe("invalid_scope");
    expectOAuthError(await tokenFor(backend.clientId, backend.clientSecret, "admin"), 400, "invalid_scope");
  });

  it("narrows a client with an explicit list (admin API), which also narrows the tokens it already holds", async () => {
    const { projectId } = await newProject();
    const backend = await clientToken(projectId, "backend");
    expect((await call("GET", `/privacy/v2/projects/${projectId}/permissions`, { token: backend.token })).status).toBe(200);
    const updated = await admin("PUT", `/projects/${projectId}/clients/${backend.clientId}`, { scopes: ["config:read"] });
    expect(updated.body).toMatchObject({ scopes: ["config:read"], explicitScopes: true, kind: "confidential" });
    expectProblem(await call("GET", `/privacy/v2/projects/${projectId}/permissions`, { token: backend.token }), 403, "insufficient_scope");
    expect((await tokenFor(backend.clientId, backend.clientSecret)).body.scope).toBe("config:read");
  });

  it("never lets an explicit list widen a public client", async () => {
    const { projectId } = await newProject();
    const reply = await admin("POST", `/projects/${projectId}/clients`, { name: "app", type: "ios", scopes: ["requests:read"] });
    expectProblem(reply, 400, "scope_not_allowed");
  });
});
