import { roles, type Role } from "../accounts/table";
import { clientScopes, operatorScopes, type Scope } from "./scopes";

export { roles, type Role };


/** Read-only, and nothing that names or describes a data subject (identities, requests, the project log). */
const viewerScopes = ["consent-config:read", "config:read", "scans:read", "projects:read"] as const satisfies readonly Scope[];

/**
 * What each role may do: a table, enforced by the one access check (worker/auth/authorize.ts) against the scopes each
 * route declares. docs/security.md#roles describes it; test/security/roles-matrix.test.ts plays it against every route.
 * - owner: everything (members and roles, deleting projects, the deployment-wide admin API);
 * - admin: clients and secrets, webhooks, settings, blocking, and every project scope; not members, not deleting projects;
 * - editor: the configuration, its wording, the scanner and the blocking list;
 * - request_handler: the request queues, identities and exports (personal data), read-only configuration;
 * - viewer: read-only, no personal data.
 */
export const roleScopes: Record<Role, readonly Scope[]> = {
  owner: operatorScopes,
  admin: [...clientScopes, "projects:read", "projects:write", "clients:read", "clients:manage", "blocking:write", "members:read", "audit-trail:read"],
  editor: [...viewerScopes, "config:write", "scans:write", "blocking:write"],
  request_handler: [
    ...viewerScopes,
    "identities:create",
    "identities:read",
    "identities:write",
    "identities:export",
    "requests:read",
    "requests:write",
    "requests:manage",
    "consents:write",
    "audit:read",
  ],
  viewer: viewerScopes,
};
