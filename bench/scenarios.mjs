import { analyticsScenarios } from "./analytics.mjs";

// The measured scenarios, numbered as in BENCHMARKS.md ("Scenarios"). Each names what it sends and the status every answer must have.
// `f` is the data set's fixture: `npm run bench`'s (seed.mjs) or the profiler's smaller one (profile.mjs); `f.sizes`
// gives the history sizes the names quote.
export function scenarioList(f) {
  const count = (n) => n.toLocaleString("en");
  const bearer = { authorization: `Bearer ${f.token}` };
  const under = `/privacy/v2/projects/${f.projectId}`;
  let next = 0;
  let client = 0;
  const list = `${under}/permissions?status=completed&identityId=${f.largeId}`;
  return [
    { id: 0, name: "baseline GET /healthz", path: "/healthz", expectStatus: 200 },
    {
      id: 1,
      name: "token issuance",
      method: "POST",
      path: "/oauth/token",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: f.client.clientId, client_secret: f.client.clientSecret }).toString(),
      // The token endpoint is rate-limited per client address (docs/security.md#abuse-limits): the load comes from many
      // clients, as in production, each well under its limit.
      requests: [
        {
          path: "/oauth/token",
          setupRequest: (request) => {
            client = (client + 1) % 65_000;
            request.headers = { ...request.headers, "cf-connecting-ip": `10.${client >> 8}.${client & 255}.1` };
            return request;
          },
        },
      ],
      expectStatus: 200,
    },
    { id: 2, name: "GET identity", path: `${under}/identities/${f.subjectId}`, headers: bearer, expectStatus: 200 },
    { id: 3, name: "alias lookup", path: `${under}/identities/aliases/${f.aliasKey}`, headers: bearer, expectStatus: 200 },
    { id: 4, name: `permission state, ${count(f.sizes.small)} past requests`, path: `${under}/identities/${f.smallId}/permission-state`, headers: bearer, expectStatus: 200 },
    { id: 5, name: `permission state, ${count(f.sizes.large)} past requests`, path: `${under}/identities/${f.largeId}/permission-state`, headers: bearer, expectStatus: 200 },
    {
      id: 6,
      name: "POST permission",
      method: "POST",
      headers: { ...bearer, "content-type": "application/json" },
      // Spread over the bulk subjects, one new decision per request.
      requests: [
        {
          path: `${under}/permissions`,
          setupRequest: (request) => {
            next = (next + 1) % f.bulkIds.length;
            request.body = JSON.stringify(f.permissionBody(f.bulkIds[next], f.requestedAt(Date.now() - 1000), next % 2 ? "denied" : "approved"));
            return request;
          },
        },
      ],
      expectStatus: 201,
    },
    {
      id: 7,
      name: `list page (status + identityId) over ${count(f.sizes.all)} requests`,
      headers: bearer,
      // The first page and a deep one (5,000 items deep in `npm run bench`), alternately: neither may cost more than the other.
      requests: [{ path: list }, { path: `${list}&cursor=${f.deepCursor}` }],
      expectStatus: 200,
    },
    // The profiler's small data set has no analytics (profile.mjs).
    ...(f.analyticsFrom ? analyticsScenarios(f) : []),
  ];
}
