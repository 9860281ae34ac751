// A client of the running service: the benchmark seeds through the real API wherever it can. openapi-fetch over the
// generated paths, typed for editors by the JSDoc below: `await ok(api.admin.POST("/admin/v1/projects", { body }))`.
import createClient from "openapi-fetch";

/** @typedef {import("openapi-fetch").Client<import("../shared/api/openapi").paths>} Client */

/**
 * @param {string} baseUrl
 * @param {string} adminToken
 */
export function apiClient(baseUrl, adminToken) {
  /**
   * A client that calls with `token` as its bearer (none: anonymous).
   * @param {string} [token]
   * @returns {Client}
   */
  const as = (token) => createClient({ baseUrl, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const anonymous = as();
  // One token per client for the whole run (they live an hour), as a real integration keeps it: the token endpoint
  // is rate-limited per address.
  /** @type {Map<string, Promise<string>>} */
  const tokens = new Map();
  /** @param {{ clientId: string, clientSecret: string }} client */
  const tokenFor = ({ clientId, clientSecret }) => {
    if (!tokens.has(clientId)) {
      const answer = anonymous.POST("/oauth/token", {
        body: { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret },
        bodySerializer: (form) => new URLSearchParams(form).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      tokens.set(clientId, ok(answer).then((issued) => issued.access_token));
    }
    return /** @type {Promise<string>} */ (tokens.get(clientId));
  };
  return { admin: as(adminToken), as, tokenFor };
}

/**
 * What a request answered when it succeeded; anything else throws, naming the request and quoting the answer.
 * @template T
 * @param {Promise<{ data?: T, error?: unknown, response: Response }>} pending
 * @returns {Promise<T>}
 */
export async function ok(pending) {
  const { data, error, response } = await pending;
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${JSON.stringify(error).slice(0, 500)}`);
  return /** @type {T} */ (data);
}
