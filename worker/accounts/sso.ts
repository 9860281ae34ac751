/**
 * Single sign-on per organization (docs/security.md#single-sign-on): OpenID Connect's authorization code flow with
 * PKCE (oauth4webapi), the ID token checked again with jose against the provider's JWKS, the address's domain bound
 * to the organization, members made just in time with the organization's default role, then the portal's session.
 */
import { and, eq, gt } from "drizzle-orm";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import * as oauth from "oauth4webapi";
import type { AppEnv } from "../env";
import { randomSecret, sha256Hex } from "../lib/crypto";
import { ApiError, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { now } from "../lib/time";
import { createSession, type PortalSession } from "../auth/portal-session";
import { recordAudit } from "../auth/audit";
import { accountsDb, memberOperator, type Operator } from "../auth/operators";
import { callbackUrl, discover, insecureOptions, organizationOfDomain, ssoClientOf } from "./sso-config";
import { members, ssoPendingSignIns } from "./table";

/** A sign-in under way lasts 10 minutes: long enough to type a password and answer a second factor. */
const pendingSeconds = 10 * 60;
/** The cookie binding a sign-in under way to the browser that started it (Lax: the provider's redirect back is cross-site). */
const browserCookie = "assent_sso";

const stateInvalid = () =>
  new ApiError(400, "sso_state_invalid", "This single sign-on is not one this browser started, was already used or has expired. Start again.");

/** The start: the address's domain names the organization; answers the provider's authorization URL. */
export async function startSsoSignIn(c: Context<AppEnv>, email: string): Promise<string> {
  const organizationId = await organizationOfDomain(c, email);
  const client = organizationId === null ? null : await ssoClientOf(c, organizationId);
  if (!organizationId || !client) throw new ApiError(404, "sso_not_configured", "No organization signs in with single sign-on for that address's domain.");
  const provider = await discover(c.env, client.issuer);
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const browser = randomSecret("sso");
  await accountsDb(c)
    .insert(ssoPendingSignIns)
    .values({
      stateHash: await sha256Hex(state),
      organizationId,
      nonce,
      codeVerifier,
      browserHash: await sha256Hex(browser),
      expires: new Date(Date.now() + pendingSeconds * 1000).toISOString(),
    });
  setCookie(c, browserCookie, browser, { httpOnly: true, secure: true, sameSite: "Lax", path: "/", maxAge: pendingSeconds, prefix: "host" });
  const url = new URL(provider.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: client.clientId,
    redirect_uri: callbackUrl(c),
    response_type: "code",
    scope: "openid email profile",
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    nonce,
    login_hint: email,
  }).toString();
  return url.toString();
}

/** Spends the sign-in under way that `state` names, if this browser started it and it has not expired (one statement: once). */
async function redeemPending(c: Context<AppEnv>, state: string | undefined) {
  const browser = getCookie(c, browserCookie, "host");
  deleteCookie(c, browserCookie, { path: "/", secure: true, httpOnly: true, sameSite: "Lax", prefix: "host" });
  if (!state) throw stateInvalid();
  const [pending] = await accountsDb(c)
    .delete(ssoPendingSignIns)
    .where(and(eq(ssoPendingSignIns.stateHash, await sha256Hex(state)), gt(ssoPendingSignIns.expires, now())))
    .returning();
  if (!pending || !browser || pending.browserHash !== (await sha256Hex(browser))) throw stateInvalid();
  return pending;
}

const jwksByUri = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
const jwksOf = (uri: string) => {
  let jwks = jwksByUri.get(uri);
  if (!jwks) jwksByUri.set(uri, (jwks = createRemoteJWKSet(new URL(uri))));
  return jwks;
};

/** The provider's refusals and protocol errors are the sign-in's failure (4xx), not the service's. */
async function exchange<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof oauth.OperationProcessingError && (error.code === oauth.JWT_CLAIM_COMPARISON || error.code === oauth.JWT_TIMESTAMP_CHECK)) {
      throw new ApiError(401, "sso_id_token_invalid", `The provider's ID token is not for this sign-in: ${error.message}`);
    }
    const detail = error instanceof oauth.AuthorizationResponseError || error instanceof oauth.ResponseBodyError ? `${error.error}: ${error.error_description ?? ""}` : (error as Error).message;
    throw new ApiError(400, "sso_failed", `The provider did not sign you in: ${detail}`.trim());
  }
}

/** Audits a refused sign-in in the organization's trail (no member: the address never became one) and answers the problem. */
async function refuse(c: Context<AppEnv>, organizationId: string, role: Operator["role"], problem: ApiError, detail: Record<string, unknown>): Promise<never> {
  await recordAudit(c, { memberId: null, organizationId, role, credential: "sso" }, { operationId: "ssoCallback", status: problem.status, projectId: null, after: detail });
  throw problem;
}

/**
 * The callback: the state is spent, the code exchanged with the verifier, the ID token checked (signature against
 * the provider's JWKS, issuer, audience, expiry, nonce), the address verified and its domain bound to the
 * organization; the member is found or made, and the session opened.
 */
export async function finishSsoSignIn(c: Context<AppEnv>, query: Record<string, string | undefined>): Promise<PortalSession> {
  const pending = await redeemPending(c, query.state);
  const client = await ssoClientOf(c, pending.organizationId);
  if (!client) throw notFound("Single sign-on configuration");
  const provider = await discover(c.env, client.issuer);
  const oauthClient: oauth.Client = { client_id: client.clientId };
  const { id_token: idToken, access_token: accessToken } = await exchange(async () => {
    const params = oauth.validateAuthResponse(provider, oauthClient, new URL(c.req.url), query.state);
    const response = await oauth.authorizationCodeGrantRequest(
      provider,
      oauthClient,
      oauth.ClientSecretBasic(client.clientSecret),
      params,
      callbackUrl(c),
      pending.codeVerifier,
      insecureOptions(c.env),
    );
    return oauth.processAuthorizationCodeResponse(provider, oauthClient, response, { expectedNonce: pending.nonce, requireIdToken: true });
  });
  // requireIdToken: oauth4webapi refused an answer without one.
  let claims: JWTPayload & { email?: unknown; email_verified?: unknown; name?: unknown; nonce?: unknown };
  try {
    ({ payload: claims } = await jwtVerify(idToken!, jwksOf(provider.jwks_uri!), { issuer: provider.issuer, audience: client.clientId, requiredClaims: ["exp", "iat", "sub"] }));
  } catch (error) {
    throw new ApiError(401, "sso_id_token_invalid", `The provider's ID token did not verify: ${(error as Error).message}`);
  }
  if (claims.nonce !== pending.nonce) throw new ApiError(401, "sso_id_token_invalid", "The ID token's nonce is not this sign-in's.");
  // Providers may leave the scope's claims out of the ID token in the code flow (OpenID Connect Core §5.4): then the
  // UserInfo endpoint answers them, for the ID token's subject only.
  if (claims.email === undefined && provider.userinfo_endpoint) {
    const userInfo = await exchange(async () =>
      oauth.processUserInfoResponse(provider, oauthClient, claims.sub!, await oauth.userInfoRequest(provider, oauthClient, accessToken, insecureOptions(c.env))),
    );
    claims = { ...claims, email: userInfo.email, email_verified: userInfo.email_verified, name: userInfo.name };
  }
  const email = typeof claims.email === "string" ? claims.email.toLowerCase() : "";
  const domain = email.slice(email.lastIndexOf("@") + 1);
  const role = client.defaultRole;
  if (!email || claims.email_verified !== true) {
    return refuse(c, pending.organizationId, role, new ApiError(403, "sso_email_unverified", "The provider did not say the address is verified."), { refused: "email_unverified" });
  }
  if (!client.domains.includes(domain)) {
    return refuse(c, pending.organizationId, role, new ApiError(403, "sso_domain_mismatch", `Addresses at ${domain} do not sign in to this organization through its single sign-on.`), {
      refused: "domain_mismatch",
      domain,
    });
  }
  const member = await memberFor(c, pending.organizationId, email, typeof claims.name === "string" ? claims.name.slice(0, 200) : null, role);
  const operator = member === null ? null : await memberOperator(c, member.id, "sso");
  if (!member || !operator) {
    return refuse(c, pending.organizationId, role, new ApiError(403, "sso_member_elsewhere", "That address is a member of another organization."), { refused: "member_elsewhere", domain });
  }
  await recordAudit(c, operator, { operationId: "signIn", status: 201, projectId: null, ...(member.joined ? { after: { joined: "just-in-time", role } } : {}) });
  return createSession(c, member.id, "sso");
}

/**
 * The organization's member with the address, made just in time with the default role (`joined`); null when the
 * address is another organization's member.
 */
async function memberFor(c: Context<AppEnv>, organizationId: string, email: string, name: string | null, role: Operator["role"]) {
  const db = accountsDb(c);
  const id = newId("mbr");
  // The address is unique: two first sign-ins at once make one member.
  await db.insert(members).values({ id, organizationId, email, name, role, created: now() }).onConflictDoNothing();
  const [row] = await db.select({ id: members.id, organizationId: members.organizationId }).from(members).where(eq(members.email, email)).limit(1);
  return row?.organizationId === organizationId ? { id: row.id, joined: row.id === id } : null;
}
