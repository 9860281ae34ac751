import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { databaseNames, defaultDatabase } from "../lib/databases";
import { getDb } from "../lib/db";
import { secretMatches } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { createRouter, defineRoute } from "./router";
import { jsonResponse, Problem } from "../lib/schemas";
import { requireSetting } from "../lib/settings";
import { limitRate } from "../limits/rate-limits";
import { cachedProjectOf, secretVersionOf } from "./clients-cache";
import { signingKeys } from "./keys";
import { access, clientScopes, parseScopeParameter, scopesOfClient } from "./scopes";
import { clients } from "./table";
import { issueToken, issuerOf, tokenTtl } from "./tokens";

/** The token endpoint, mounted at `/oauth`. */
export const tokenRoutes = createRouter();

/** Discovery: the authorization server's metadata and its keys, mounted at `/.well-known`. */
export const discoveryRoutes = createRouter();

/**
 * RFC 6749 §5.2 errors: `application/json` with `error` and `error_description`, as OAuth libraries read them; the
 * problem fields every other error has (type, title, status, detail, code) ride along in the same object.
 */
const oauthError = (status: 400 | 401, error: string, description: string, challenge = false) =>
  new ApiError(status, error, description, {
    members: { error, error_description: description },
    headers: {
      "content-type": "application/json",
      "Cache-Control": "no-store",
      ...(challenge ? { "WWW-Authenticate": 'Basic realm="assent", charset="UTF-8"' } : {}),
    },
  });

/**
 * A failed client authentication. RFC 6749 §5.2 asks for the Basic challenge when the client authenticated with the
 * Authorization header, and allows it to name the supported scheme when none was tried; a client that sent its
 * secret in the form gets none, since OAuth libraries read a challenge as the answer and would not read `error`.
 */
const invalidClient = (method: ClientAuthentication, description: string) =>
  oauthError(401, "invalid_client", description, method !== "client_secret_post");

type ClientAuthentication = "client_secret_basic" | "client_secret_post" | "none";

const formType = /^application\/x-www-form-urlencoded\b/i;

const oauthErrorBody = (description: string) => ({
  description,
  content: {
    "application/json": {
      schema: Problem.extend({ error: z.string(), error_description: z.string() }).openapi("OAuthError"),
    },
  },
});

const TokenForm = z
  .object({
    grant_type: z.string().optional().openapi({ example: "client_credentials" }),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
    scope: z.string().optional().openapi({
      description: "Space-delimited scopes to ask for (RFC 6749 §3.3); default: all the client holds. One it does not hold: 400 `invalid_scope`.",
      example: "config:read identities:create",
    }),
  })
  .openapi("TokenRequest", { description: "Unrecognised parameters are ignored (RFC 6749 §3.2)." });

const TokenResponse = z
  .object({
    access_token: z.string(),
    expires_in: z.number().int(),
    refresh_expires_in: z.number().int().openapi({ description: "Always 0: no refresh token is issued." }),
    token_type: z.literal("Bearer"),
    "not-before-policy": z.number().int().openapi({ description: "Unix time of the client's last secret regeneration." }),
    session_state: z.string().openapi({ description: "The token's `jti`." }),
    scope: z.string().openapi({ description: "The scopes granted, space-delimited (also the token's `scope` claim)." }),
  })
  .openapi("TokenResponse");

/** Before the body is read: the rate limit, then a form body (a JSON one is an OAuth error, not a bare 415). */
const tokenRequestGate = createMiddleware<AppEnv>(async (c, next) => {
  await limitRate(c, "TOKEN_ENDPOINT_LIMITER");
  if (!formType.test(c.req.header("content-type") ?? "")) {
    throw oauthError(400, "invalid_request", "Send the token request as application/x-www-form-urlencoded (RFC 6749 §4.4.2).");
  }
  await next();
});

const tokenRoute = defineRoute({
  method: "post",
  path: "/token",
  operationId: "issueToken",
  tags: ["Auth"],
  ...access.public,
  summary: "Issue an access token (OAuth 2.0 client credentials)",
  description:
    "Client authentication by HTTP Basic (RFC 6749 §2.3.1) or by `client_id`/`client_secret` form fields. " +
    "No `refresh_token` is issued (RFC 6749 §4.4.3: a client can always ask again with its credentials) and no " +
    "`id_token` (the token represents a client, not an end user), so `refresh_expires_in` is 0. The token (RFC 9068) " +
    "carries `client_id` and `scope`. Rate-limited per client IP (429 with `Retry-After`).",
  middleware: [tokenRequestGate],
  request: {
    body: { content: { "application/x-www-form-urlencoded": { schema: TokenForm } } },
  },
  responses: {
    200: jsonResponse(TokenResponse, "An ES256-signed JWT access token."),
    400: oauthErrorBody("`invalid_request` (also for a body that is not form-encoded), `unsupported_grant_type` or `invalid_scope`."),
    401: oauthErrorBody("`invalid_client`."),
    429: { description: "Too many token requests from this address.", content: { "application/problem+json": { schema: Problem } } },
  },
});

tokenRoutes.openapi(
  tokenRoute,
  async (c) => {
    const form = c.req.valid("form");
    const credentials = clientCredentials(c.req.header("authorization"), form);
    if (form.grant_type === undefined) throw oauthError(400, "invalid_request", "grant_type is required.");
    if (form.grant_type !== "client_credentials") {
      throw oauthError(400, "unsupported_grant_type", "Only grant_type=client_credentials is supported.");
    }
    const client = credentials.id ? await findClient(c, credentials.id) : undefined;
    // Check the secret even for an unknown client, so timing does not tell which client ids exist.
    const secretOk = await secretMatches(credentials.secret, client?.secretHash ?? "0".repeat(64));
    if (!client || !secretOk) throw invalidClient(credentials.method, "Client authentication failed.");
    const held = scopesOfClient(client.type, client.scopes);
    const asked = form.scope === undefined ? held : parseScopeParameter(form.scope);
    const unknown = asked.filter((scope) => !(held as readonly string[]).includes(scope));
    if (unknown.length > 0 || asked.length === 0) {
      throw oauthError(400, "invalid_scope", `This client may not be granted: ${unknown.join(" ") || "(no scope)"}. It holds: ${held.join(" ")}.`);
    }
    const granted = clientScopes.filter((scope) => asked.includes(scope));
    const ttl = tokenTtl(c.env);
    const { token, jti } = await issueToken(
      c.env,
      issuerOf(c.env),
      { clientId: client.id, pid: client.projectId, ctp: client.type, sv: secretVersionOf(client.secretHash), scopes: granted },
      ttl,
    );
    c.header("Cache-Control", "no-store");
    c.header("Pragma", "no-cache");
    return c.json(
      {
        access_token: token,
        expires_in: ttl,
        refresh_expires_in: 0,
        token_type: "Bearer" as const,
        "not-before-policy": client.notBefore,
        session_state: jti,
        scope: granted.join(" "),
      },
      200,
    );
  },
  (result): undefined => {
    if (!result.success) throw oauthError(400, "invalid_request", "The token request is malformed.");
  },
);

const clientById = (d1: D1Database, id: string) => getDb(d1).select().from(clients).where(eq(clients.id, id)).limit(1);

/**
 * The client, in whichever database holds its project (worker/lib/databases.ts). With one database: `DB`, one round
 * trip as always. With more: the database of the project the caches (isolate, KV) know for this client, else `DB`
 * and then the other databases side by side (one more round trip, only until a call with the client's token has
 * cached it, and for unknown ids). The call's data is then that database, so its bookmark is that one's.
 */
async function findClient(c: Context<AppEnv>, id: string) {
  const { databases } = c.var;
  const names = databaseNames(c.env);
  if (names.length > 1) {
    const known = await cachedProjectOf(c.env, id);
    const [row] = known === undefined ? [] : await clientById(databases.project(known), id);
    if (row) {
      c.set("db", databases.project(row.projectId));
      return row;
    }
  }
  const [inDefault] = await clientById(databases.named(defaultDatabase), id);
  if (inDefault) return inDefault;
  const found = await Promise.all(
    names.filter((name) => name !== defaultDatabase).map(async (name) => (await clientById(databases.named(name), id))[0]),
  );
  const hit = found.find((row) => row !== undefined);
  if (hit) c.set("db", databases.project(hit.projectId));
  return hit;
}

/** Reads client credentials from HTTP Basic or the form, refusing both at once (RFC 6749 §2.3). */
function clientCredentials(authorization: string | undefined, form: z.infer<typeof TokenForm>) {
  const basic = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(authorization ?? "");
  if (basic) {
    const malformed = () => invalidClient("client_secret_basic", "Malformed Basic credentials.");
    if (form.client_secret !== undefined) {
      throw oauthError(400, "invalid_request", "Use one client authentication method, not both.");
    }
    let decoded: string;
    try {
      decoded = atob(basic[1]);
    } catch {
      throw malformed();
    }
    const colon = decoded.indexOf(":");
    if (colon < 0) throw malformed();
    try {
      // RFC 6749 §2.3.1: id and secret are form-urlencoded before base64.
      const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
      return { method: "client_secret_basic" as const, id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
    } catch {
      throw malformed();
    }
  }
  if (!form.client_id || !form.client_secret) {
    const tried = form.client_id !== undefined || form.client_secret !== undefined;
    throw invalidClient(tried ? "client_secret_post" : "none", "Client authentication is required.");
  }
  return { method: "client_secret_post" as const, id: form.client_id, secret: form.client_secret };
}

/**
 * What this authorization server implements (RFC 8414), and nothing more: the client-credentials grant at the token
 * endpoint, two client authentication methods, the keys. No authorization endpoint, so no response types; no
 * id_token. The OIDC discovery location serves the same document, for libraries that only look there.
 */
function serverMetadata(env: Parameters<typeof issuerOf>[0]) {
  const issuer = issuerOf(env);
  const origin = new URL(issuer).origin;
  return {
    issuer,
    token_endpoint: `${origin}/oauth/token`,
    jwks_uri: `${origin}/.well-known/jwks.json`,
    grant_types_supported: ["client_credentials"],
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    response_types_supported: [],
    scopes_supported: clientScopes,
    service_documentation: `${origin}/docs`,
  };
}

for (const [path, operationId, summary] of [
  ["/oauth-authorization-server", "getAuthorizationServerMetadata", "Authorization server metadata (RFC 8414)"],
  ["/openid-configuration", "getOpenIdConfiguration", "The same metadata at the OpenID Connect discovery location"],
] as const) {
  discoveryRoutes.openapi(
    defineRoute({
      method: "get",
      path,
      operationId,
      tags: ["Auth"],
      ...access.public,
      summary,
      responses: { 200: jsonResponse(z.record(z.string(), z.unknown()), "Authorization server metadata.") },
    }),
    (c) => c.json(serverMetadata(c.env), 200, { "Cache-Control": "public, max-age=300" }),
  );
}

discoveryRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/jwks.json",
    operationId: "getJwks",
    tags: ["Auth"],
    ...access.public,
    summary: "Public keys that verify access tokens",
    responses: { 200: jsonResponse(z.object({ keys: z.array(z.record(z.string(), z.unknown())) }), "JWK set.") },
  }),
  async (c) => {
    const keys = await signingKeys(requireSetting(c.env, "SIGNING_KEYS"));
    c.header("Cache-Control", "public, max-age=300");
    return c.json({ keys: keys.map((k) => k.publicJwk as Record<string, unknown>) }, 200);
  },
);
