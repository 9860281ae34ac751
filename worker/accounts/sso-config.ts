import { eq, inArray } from "drizzle-orm";
import type { Context } from "hono";
import type { z } from "@hono/zod-openapi";
import * as oauth from "oauth4webapi";
import type { AppEnv, Env } from "../env";
import { webhookUrlProblem } from "../../shared/ssrf";
import { encryptSecret, openSecret } from "../events/secrets";
import { ApiError, badRequest, notFound } from "../lib/errors";
import { now } from "../lib/time";
import { accountsDb } from "../auth/operators";
import type { SsoConfiguration, SsoConfigurationInput } from "./sso-schemas";
import { ssoConfigurations, ssoDomains, ssoPendingSignIns } from "./table";

/** Where the provider sends the browser back: the same on every deployment, under its own origin. */
export const ssoCallbackPath = "/portal/api/sso/callback";
export const callbackUrl = (c: Context<AppEnv>) => `${new URL(c.req.url).origin}${ssoCallbackPath}`;

/** Loopback issuers over http: local development and the tests' provider only (`ALLOW_LOOPBACK_SSO=true`). */
const loopbackIssuers = (env: Env) => env.ALLOW_LOOPBACK_SSO === "true";

/** The additional data binding an encrypted client secret to its organization (a ciphertext cannot be moved). */
export const secretContext = (organizationId: string) => `sso:${organizationId}`;

/** The provider's metadata, from its discovery document (OpenID Connect Discovery 1.0); 422 when it cannot be read. */
export async function discover(env: Env, issuer: string): Promise<oauth.AuthorizationServer> {
  const url = new URL(issuer);
  try {
    const response = await oauth.discoveryRequest(url, { algorithm: "oidc", [oauth.allowInsecureRequests]: loopbackIssuers(env) });
    return await oauth.processDiscoveryResponse(url, response);
  } catch (error) {
    throw new ApiError(422, "sso_discovery_failed", `The provider's discovery document at ${issuer} could not be read: ${(error as Error).message}`);
  }
}

export const insecureOptions = (env: Env) => ({ [oauth.allowInsecureRequests]: loopbackIssuers(env) });

type Row = typeof ssoConfigurations.$inferSelect;

/** The organization's single sign-on as an owner reads it (no secret), or null. */
async function stored(c: Context<AppEnv>, organizationId: string): Promise<{ row: Row; domains: string[] } | null> {
  const db = accountsDb(c);
  const [row] = await db.select().from(ssoConfigurations).where(eq(ssoConfigurations.organizationId, organizationId)).limit(1);
  if (!row) return null;
  const domains = await db.select({ domain: ssoDomains.domain }).from(ssoDomains).where(eq(ssoDomains.organizationId, organizationId)).orderBy(ssoDomains.domain);
  return { row, domains: domains.map((d) => d.domain) };
}

const shown = (c: Context<AppEnv>, found: { row: Row; domains: string[] }): z.infer<typeof SsoConfiguration> => ({
  issuer: found.row.issuer,
  clientId: found.row.clientId,
  clientSecretSet: true,
  domains: found.domains,
  defaultRole: found.row.defaultRole as z.infer<typeof SsoConfiguration>["defaultRole"],
  redirectUri: callbackUrl(c),
  updated: found.row.updated,
});

export async function readSsoConfiguration(c: Context<AppEnv>, organizationId: string) {
  const found = await stored(c, organizationId);
  if (!found) throw notFound("Single sign-on configuration");
  return shown(c, found);
}

/**
 * Sets the organization's single sign-on in one batch (configuration and domains), after checking the issuer is a
 * public https URL (SSRF guard) whose discovery document reads. Answers what it was before and after, without secret.
 */
export async function writeSsoConfiguration(c: Context<AppEnv>, organizationId: string, input: z.infer<typeof SsoConfigurationInput>) {
  const problem = webhookUrlProblem(input.issuer, loopbackIssuers(c.env));
  if (problem) throw badRequest("sso_issuer_refused", `The issuer ${problem}`);
  const before = await stored(c, organizationId);
  if (!before && input.clientSecret === undefined) throw badRequest("sso_client_secret_required", "The first configuration needs the client secret.");
  const db = accountsDb(c);
  const taken = await db
    .select({ domain: ssoDomains.domain, organizationId: ssoDomains.organizationId })
    .from(ssoDomains)
    .where(inArray(ssoDomains.domain, input.domains));
  const elsewhere = taken.find((d) => d.organizationId !== organizationId);
  if (elsewhere) throw new ApiError(409, "sso_domain_taken", `The domain ${elsewhere.domain} is bound to another organization's single sign-on.`);
  await discover(c.env, input.issuer);
  const clientSecretEncrypted =
    input.clientSecret === undefined ? before!.row.clientSecretEncrypted : await encryptSecret(c.env.WEBHOOK_SECRETS_KEY, secretContext(organizationId), input.clientSecret);
  const row: Row = { organizationId, issuer: input.issuer, clientId: input.clientId, clientSecretEncrypted, defaultRole: input.defaultRole, updated: now() };
  const { organizationId: _key, ...changes } = row;
  await db.batch([
    db.insert(ssoConfigurations).values(row).onConflictDoUpdate({ target: ssoConfigurations.organizationId, set: changes }),
    db.delete(ssoDomains).where(eq(ssoDomains.organizationId, organizationId)),
    ...[...new Set(input.domains)].map((domain) => db.insert(ssoDomains).values({ domain, organizationId })),
  ]);
  const after = shown(c, { row, domains: [...new Set(input.domains)].sort() });
  return { before: before ? shown(c, before) : null, after: { ...after, clientSecretChanged: input.clientSecret !== undefined } };
}

/** Ends the organization's single sign-on (its domains and the sign-ins under way with it); members stay. */
export async function deleteSsoConfiguration(c: Context<AppEnv>, organizationId: string) {
  const before = await stored(c, organizationId);
  if (!before) throw notFound("Single sign-on configuration");
  const db = accountsDb(c);
  await db.batch([
    db.delete(ssoPendingSignIns).where(eq(ssoPendingSignIns.organizationId, organizationId)),
    db.delete(ssoDomains).where(eq(ssoDomains.organizationId, organizationId)),
    db.delete(ssoConfigurations).where(eq(ssoConfigurations.organizationId, organizationId)),
  ]);
  return shown(c, before);
}

/** What a sign-in needs of an organization's single sign-on: the provider, the client and its secret in the clear. */
export async function ssoClientOf(c: Context<AppEnv>, organizationId: string) {
  const found = await stored(c, organizationId);
  if (!found) return null;
  const { secret } = await openSecret(c.env, secretContext(organizationId), found.row.clientSecretEncrypted);
  return { ...found.row, domains: found.domains, clientSecret: secret };
}

/** The organization whose single sign-on an address's domain is bound to, or null. */
export async function organizationOfDomain(c: Context<AppEnv>, email: string): Promise<string | null> {
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  const [row] = await accountsDb(c).select({ organizationId: ssoDomains.organizationId }).from(ssoDomains).where(eq(ssoDomains.domain, domain)).limit(1);
  return row?.organizationId ?? null;
}
