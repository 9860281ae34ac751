import { decodeProtectedHeader, errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Caller, Databases, Env } from "../env";
import { ApiError } from "../lib/errors";
import { newId } from "../lib/ids";
import { requireSetting } from "../lib/settings";
import { ttlCache } from "../../shared/ttl-cache";
import { readClient, type ClientRecord } from "./clients-cache";
import { signingKeys } from "./keys";
import { clientTypes, identityScopedScopes, type ClientType, type Scope } from "./scopes";

export const audience = "assent-api";
export const defaultTtlSeconds = 3600;

/**
 * Claims Assent adds to the registered ones: `scope` and `client_id` as RFC 9068 names them, `pid` the project,
 * `ctp` the client type, `sv` the client's secret version, `idn` the identity a token is scoped to.
 */
type AssentClaims = { pid: string; ctp: ClientType; sv: string; idn?: string; scope: string; client_id: string };

/** The token issuer comes from configuration only: never from the Host header a caller chose. */
export const issuerOf = (env: Env) => requireSetting(env, "ISSUER");
export const tokenTtl = (env: Env) => Number(env.TOKEN_TTL_SECONDS ?? defaultTtlSeconds);

export async function issueToken(
  env: Env,
  issuer: string,
  claims: { clientId: string; scopes: readonly Scope[] } & Omit<AssentClaims, "scope" | "client_id">,
  ttlSeconds: number,
): Promise<{ token: string; jti: string; iat: number; exp: number }> {
  const [key] = await signingKeys(requireSetting(env, "SIGNING_KEYS"));
  const jti = newId("tok");
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + ttlSeconds;
  const { clientId, scopes, ...custom } = claims;
  const token = await new SignJWT({ ...custom, scope: scopes.join(" "), client_id: clientId })
    .setProtectedHeader({ alg: "ES256", kid: key.kid, typ: "at+jwt" })
    .setIssuer(issuer)
    .setSubject(clientId)
    .setAudience(audience)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(jti)
    .sign(key.privateKey);
  return { token, jti, iat, exp };
}

const unauthorized = (detail: string, error: "invalid_request" | "invalid_token" = "invalid_token") =>
  new ApiError(401, "unauthorized", detail, {
    headers: { "WWW-Authenticate": `Bearer realm="assent", error="${error}", error_description="${detail}"` },
  });

/**
 * Tokens whose signature and claims were already checked, until they expire: verification is the hot path. Each
 * keeps the caller it last resolved to with the client record it was resolved against (reused while that record is
 * the one the client cache holds).
 */
const verified = ttlCache<{ claims: AssentClaims & { sub: string }; exp: number; caller?: { client: ClientRecord; value: Caller } }>(
  0, // each entry is set to live until its token's `exp`
);

/** Verifies a bearer token (pinned ES256, issuer, audience, exp) and that its client still holds that secret. */
export async function verifyBearer(env: Env, databases: Databases, authorization: string | undefined): Promise<Caller> {
  const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(authorization ?? "");
  if (!match) throw unauthorized("A bearer access token is required.", "invalid_request");
  const token = match[1];
  let entry = verified.get(token);
  if (!entry) {
    entry = await verifySignature(env, issuerOf(env), token);
    verified.set(token, entry, entry.exp * 1000);
  }
  const { claims } = entry;
  const client = await readClient(env, databases, claims.sub, claims.pid);
  if (!client || client.projectId !== claims.pid || client.secretVersion !== claims.sv) {
    throw unauthorized("The token's client no longer exists or its secret was regenerated.");
  }
  if (entry.caller?.client !== client) entry.caller = { client, value: callerOf(claims, client) };
  return entry.caller.value;
}

/** A token holds what it was granted, within what its client holds today (so narrowing a client narrows its tokens). */
function callerOf(claims: AssentClaims & { sub: string }, client: ClientRecord): Caller {
  const held: readonly Scope[] = claims.idn ? (Object.keys(identityScopedScopes) as Scope[]) : client.scopes;
  const granted = claims.scope.split(" ").filter((scope): scope is Scope => held.includes(scope as Scope));
  return Object.freeze({ projectId: claims.pid, clientId: claims.sub, clientType: claims.ctp, identityId: claims.idn, scopes: granted });
}

async function verifySignature(env: Env, issuer: string, token: string) {
  const keys = await signingKeys(requireSetting(env, "SIGNING_KEYS"));
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    throw unauthorized(
      "This is not an access token. Get one from POST /oauth/token with a client's id and secret (OAuth 2.0 client " +
        "credentials); the admin token is only for /admin/v1.",
    );
  }
  const key = keys.find((k) => k.kid === kid);
  if (!key) throw unauthorized("The token was not signed by a known key.");
  try {
    const { payload } = await jwtVerify<AssentClaims>(token, key.publicKey, {
      algorithms: ["ES256"],
      issuer,
      audience,
      requiredClaims: ["exp", "iat", "jti", "sub"],
    });
    if (
      typeof payload.pid !== "string" ||
      !clientTypes.includes(payload.ctp) ||
      typeof payload.sv !== "string" ||
      typeof payload.scope !== "string"
    ) {
      throw unauthorized("The token lacks Assent's claims.");
    }
    return { claims: { ...payload, sub: payload.sub! }, exp: payload.exp! };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw unauthorized("The token has expired.");
    throw unauthorized("The token is invalid.");
  }
}
