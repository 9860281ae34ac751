import { eq } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { secretMatches } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { countFailure, refuseIfBlocked } from "../limits/rate-limits";
import { apiTokens } from "../accounts/table";
import type { Credential } from "./credential";
import { accountsDb, memberOperator } from "./operators";
import { operatorGrant } from "./portal-session";
import type { Scope } from "./scopes";

/** A personal API token is `apt_<ulid>.<secret>`: the id finds the row, the secret is checked against its hash. */
export const apiTokenPrefix = "apt_";

const presentedToken = (c: Context<AppEnv>) => /^Bearer (apt_[A-Za-z0-9]+)\.([A-Za-z0-9_-]+)$/i.exec(c.req.header("authorization") ?? "");

const refused = (code: "unauthorized" | "token_expired" | "token_revoked", detail: string) =>
  new ApiError(401, code, detail, {
    headers: { "WWW-Authenticate": `Bearer realm="assent", error="invalid_token", error_description="${detail}"` },
  });

/**
 * A member's personal API token as a credential of the one access check (worker/auth/authorize.ts): where a route
 * takes a bearer (an access token or the admin token), a bearer starting `apt_` is this instead. The member acts
 * with the token's scopes within what their role holds today (a narrowed role narrows their tokens), audited as
 * credential `api_token`. Unknown tokens and wrong secrets count as admin-token failures (the same block).
 */
export const apiTokenCredential: Credential = {
  presented: (c) => (c.req.header("authorization") ?? "").toLowerCase().startsWith(`bearer ${apiTokenPrefix}`),
  authenticate: async (c) => {
    await refuseIfBlocked(c, "ADMIN_FAILURES_LIMITER");
    const [, id, secret] = presentedToken(c) ?? [];
    const [row] = id === undefined ? [] : await accountsDb(c).select().from(apiTokens).where(eq(apiTokens.id, id)).limit(1);
    // The hash is compared even without a row, so the timing does not tell whether the id exists.
    const matches = await secretMatches(secret ?? "", row?.secretHash ?? "0".repeat(64));
    if (!row || !matches) {
      await countFailure(c, "ADMIN_FAILURES_LIMITER");
      throw refused("unauthorized", "That is not a valid API token.");
    }
    if (row.revoked !== null) throw refused("token_revoked", "This API token was revoked (by its member, or when the member was removed).");
    if (Date.parse(row.expires) <= Date.now()) throw refused("token_expired", `This API token expired at ${row.expires}; make a new one in the portal.`);
    const operator = await memberOperator(c, row.memberId, "api_token");
    if (!operator) throw refused("token_revoked", "This API token's member was removed.");
    return operatorGrant(c, operator, row.id, row.scopes as Scope[]);
  },
  missing: () => refused("unauthorized", "An API token is required."),
};
