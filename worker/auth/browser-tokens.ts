import { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { aliases, identities } from "../identities/table";
import { randomSecret, sha256Hex } from "../lib/crypto";
import { getDb } from "../lib/db";
import { ApiError, forbidden } from "../lib/errors";
import { limitRate } from "../limits/rate-limits";
import { newId } from "../lib/ids";
import { now } from "../lib/time";
import type { AppEnv, Caller, Databases, Env } from "../env";
import type { Context } from "hono";
import { readClient, secretVersionOf } from "./clients-cache";
import { webClientForOrigin } from "./browser-origins";
import { identityScopedScopes, scopesOfClient, type ClientType, type Scope } from "./scopes";
import type { clients } from "./table";

type Client = typeof clients.$inferSelect;
import { issueToken, issuerOf, tokenTtl } from "./tokens";

/** Alias type under which a visitor key's SHA-256 is stored: the key itself never leaves the browser's storage. */
export const visitorAliasType = "urn:svc:assent-visitor";
/** Identity-scoped tokens live at most 15 minutes: they sit in pages and webviews, not on servers. */
export const browserTokenTtlSeconds = 900;

const ttlFor = (env: Parameters<typeof tokenTtl>[0]) => Math.min(tokenTtl(env), browserTokenTtlSeconds);
/** What every identity-scoped token holds (worker/auth/scopes.ts). */
export const identityTokenScopes = Object.keys(identityScopedScopes) as Scope[];

export const VisitorKey = z
  .string()
  .regex(/^avk_[A-Za-z0-9_-]{43}$/, "A visitor key as returned by this endpoint (avk_ and 43 base64url characters).")
  .openapi({ example: "avk_0n3Yc2m1bq2k3X4v5w6x7y8z9A0B1C2D3E4F5G6H7I8" });

export const BrowserToken = z
  .object({
    access_token: z.string(),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int(),
    identityId: z.string(),
  })
  .openapi("BrowserToken");

export const VisitorToken = BrowserToken.extend({
  visitorKey: VisitorKey.openapi({ description: "Keep it (the widget uses localStorage) to come back as the same identity." }),
}).openapi("VisitorToken");

/** A token scoped to `identityId`, minted for the calling client (backend minting, public clients' new identities). */
export async function identityTokenFor(
  env: Env,
  databases: Databases,
  caller: Caller,
  identityId: string,
): Promise<z.infer<typeof BrowserToken>> {
  const client = await readClient(env, databases, caller.clientId, caller.projectId);
  if (!client) throw forbidden("Only registered clients may receive identity-scoped tokens.");
  const ttl = ttlFor(env);
  const { token } = await issueToken(
    env,
    issuerOf(env),
    {
      clientId: caller.clientId,
      pid: caller.projectId,
      ctp: caller.clientType,
      sv: client.secretVersion,
      idn: identityId,
      scopes: identityTokenScopes,
    },
    ttl,
  );
  return { access_token: token, token_type: "Bearer", expires_in: ttl, identityId };
}

/* Shared with the bootstrap (worker/bootstrap): who a page's visitor is, and their token. */

/**
 * What a request may carry to say its visitor is the project's own tool rather than a person (a site scan's pass,
 * worker/scans/pass.ts, is the one there is): it spares the per-address visitor limit, and each identity a first
 * visit makes under it gets the alias it names, so the tool can remove exactly the visitors it made. Undefined when
 * the request carries no valid pass. The routes that admit visitors hand it over; auth knows no kind of pass.
 */
export type VisitorPass = (env: Env, projectId: string, headers: Headers) => Promise<{ aliasFor(identityId: string): { type: string; identifier: string } } | undefined>;

export type VisitorIdentity = {
  projectId: string;
  client: { id: string; type: ClientType; secretHash: string };
  identityId: string;
  visitorKey: string;
  created: boolean;
};

/**
 * The identity a page's visitor key names, or a new identity with a new key for a first visit (or a key that
 * names nothing, such as after an erasure). Rate-limited per address and per project; only for an `Origin`
 * listed by one of the project's web clients that may create identities (403 otherwise). The client check and
 * the key lookup run concurrently.
 */
export async function admitVisitor(
  c: Context<AppEnv>,
  projectId: string,
  passes: VisitorPass,
  presented?: string,
  prefetched?: { client: Client | undefined; knownIdentityId: string | undefined },
): Promise<VisitorIdentity> {
  // The project's own tools (its scanner makes three visitors a page from one address): a pass spares the address limit.
  const pass = await passes(c.env, projectId, c.req.raw.headers);
  if (!pass) await limitRate(c, "VISITOR_TOKENS_IP_LIMITER");
  await limitRate(c, "VISITOR_TOKENS_PROJECT_LIMITER", projectId);
  const origin = c.req.header("origin");
  if (!origin || origin === "null") {
    throw new ApiError(403, "origin_not_allowed", "Visitor tokens are minted only for pages: send an Origin header.");
  }
  const db = getDb(c.var.db);
  // The bootstrap reads both in the batch of its other reads (one round trip); alone, they run concurrently.
  const [client, known] = prefetched
    ? [prefetched.client, prefetched.knownIdentityId ? { identityId: prefetched.knownIdentityId } : undefined]
    : await Promise.all([
        webClientForOrigin(c.var.db, projectId, origin),
        presented
          ? db
              .select({ identityId: aliases.identityId })
              .from(aliases)
              .where(and(eq(aliases.projectId, projectId), eq(aliases.type, visitorAliasType), eq(aliases.identifier, await sha256Hex(presented))))
              .limit(1)
              .then((rows) => rows[0])
          : undefined,
      ]);
  if (!client) {
    throw new ApiError(
      403,
      "origin_not_allowed",
      `No web client of project ${projectId} lists the origin ${origin}. Add it to a web client's allowed origins: ` +
        `${issuerOf(c.env)}/portal/projects/${projectId}/clients (or PUT /admin/v1/projects/${projectId}/clients/{clientId}).`,
    );
  }
  if (!scopesOfClient(client.type, client.scopes).includes("identities:create")) {
    throw new ApiError(403, "insufficient_scope", "The web client for this origin may not create identities.");
  }
  if (presented && known) return { projectId, client, identityId: known.identityId, visitorKey: presented, created: false };
  const visitorKey = randomSecret("avk");
  const identityId = newId("idn");
  const stamp = now();
  const made = [
    { projectId, identityId, type: visitorAliasType, identifier: await sha256Hex(visitorKey) },
    ...(pass ? [{ projectId, identityId, ...pass.aliasFor(identityId) }] : []),
  ];
  await db.batch([
    db.insert(identities).values({ id: identityId, projectId, referenceId: null, created: stamp, updated: stamp }),
    db.insert(aliases).values(made),
  ]);
  return { projectId, client, identityId, visitorKey, created: true };
}

/** A token scoped to the visitor's identity, issued for the web client that lists the page's origin. */
export async function mintVisitorToken(env: Env, visitor: VisitorIdentity) {
  const ttl = ttlFor(env);
  const { client, projectId, identityId } = visitor;
  const { token } = await issueToken(
    env,
    issuerOf(env),
    { clientId: client.id, pid: projectId, ctp: client.type, sv: secretVersionOf(client.secretHash), idn: identityId, scopes: identityTokenScopes },
    ttl,
  );
  return { access_token: token, token_type: "Bearer" as const, expires_in: ttl, identityId, visitorKey: visitor.visitorKey };
}
