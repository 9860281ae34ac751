import type { Context } from "hono";
import type { AppEnv, Caller } from "../env";
import type { ApiError } from "../lib/errors";
import type { Scope } from "./scopes";

/** What a verified credential may do, and, for callers bound to one project, who they are. */
export type Grant = { scopes: readonly Scope[]; caller?: Caller };

/** One way of proving who is calling. */
export type Credential = {
  /** Whether the request carries this kind of credential at all (the route's first such scheme is used). */
  presented: (c: Context<AppEnv>) => boolean;
  /** The grant of a valid credential; throws 401 (or 403) when it is presented but not valid. */
  authenticate: (c: Context<AppEnv>) => Promise<Grant>;
  /** The 401 for a route needing this credential when none was presented. */
  missing: () => ApiError;
};
