// The benchmark's data set. Configuration, the subjects of scenarios (2)-(4) and two template writes go through
// the API; the bulk history (100,000 permission requests, 10,000 of them for one subject) is cloned from the
// template writes' own rows (bulk.mjs) and loaded with `wrangler d1 execute`, since 100,000 API calls would
// take longer than the benchmark. The service is then restarted on the loaded state and the clones are checked
// through the API.
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { apiClient, ok } from "./api.mjs";
import { captureWrite, cloneRows, idAt, mappingFor, readAll, SqlLoader, tablesOf, template } from "./bulk.mjs";
import { startServer } from "./server.mjs";
import { analyticsDays, benchOrigin, loadAnalytics } from "./analytics.mjs";

export const subjectAlias = { type: "urn:svc:email", identifier: "subject@bench.example" };
/** The alias as `GET …/identities/aliases/{alias}` takes it. */
export const subjectAliasKey = encodeURIComponent(`${subjectAlias.type}:${subjectAlias.identifier}`);
const bulkIdentities = 900;
const requestsPerBulkIdentity = 100;
const largeHistory = 10_000;
const smallHistory = 10;
/** The state table is rewritten in place by each request, so it is written once per subject, not per request. */
const stateTable = "permission_states";

/** An instant as a client would send it: milliseconds and a +01:00 offset. */
const requestedAt = (ms) => new Date(ms + 3_600_000).toISOString().replace("Z", "+01:00");

export async function seed(stateDir, log, setServer) {
  let server = await startServer(stateDir);
  setServer(server);
  const api = apiClient(server.baseUrl, server.adminToken);
  const { projectId } = await ok(
    api.admin.POST("/admin/v1/projects", { body: { name: "Benchmark", controller: { name: "Bench AB", email: "privacy@bench.example" } } }),
  );
  const client = await ok(
    api.admin.POST("/admin/v1/projects/{project_id}/clients", {
      params: { path: { project_id: projectId } },
      body: { name: "Bench backend", type: "backend", allowedOrigins: [] },
    }),
  );
  const backend = api.as(await api.tokenFor(client));
  // The site whose banner counts scenario (8) sends.
  await ok(
    api.admin.POST("/admin/v1/projects/{project_id}/clients", {
      params: { path: { project_id: projectId } },
      body: { name: "Bench site", type: "web", allowedOrigins: [benchOrigin] },
    }),
  );
  const project = { path: { project_id: projectId } };
  const identity = (body) => ok(backend.POST("/privacy/v2/projects/{project_id}/identities", { params: project, body }));
  const permission = (body) => ok(backend.POST("/privacy/v2/projects/{project_id}/permissions", { params: project, body }));

  const party = (referenceId, name) =>
    ok(
      backend.POST("/privacy/v2/projects/{project_id}/configurations/parties", {
        params: project,
        body: { referenceId, type: "company", details: { name, description: [{ language: "en", text: name }] } },
      }),
    );
  const dataGroup = (referenceId, name) =>
    ok(backend.POST("/privacy/v2/projects/{project_id}/configurations/data-groups", { params: project, body: { referenceId, name } }));
  const controller = await party("bench-controller", "Bench AB");
  const mailer = await party("bench-mailer", "Mailer Ltd");
  const email = await dataGroup("email", "E-mail address");
  const phone = await dataGroup("phone", "Phone number");
  const marketing = await ok(
    backend.POST("/privacy/v2/projects/{project_id}/configurations/purposes", {
      params: project,
      body: {
        referenceId: "marketing",
        name: "Marketing",
        description: [{ language: "en", text: "Offers by e-mail and phone." }],
        legalGround: "consent",
        dataGroups: [email.dataGroupId, phone.dataGroupId],
        processors: [mailer.partyId],
        controllers: [controller.partyId],
      },
    }),
  );
  const permissionBody = (identityId, requested, status = "approved") => ({
    identityId,
    requested,
    meta: { context: { internalReference: "bench", collectionMethod: "web-dialog", application: "bench", language: "en" } },
    request: {
      purposes: [
        {
          purposeId: marketing.purposeId,
          version: marketing.version,
          status,
          dataGroups: [
            { dataGroupId: email.dataGroupId, status },
            { dataGroupId: phone.dataGroupId, status },
          ],
          processors: [{ partyId: mailer.partyId, status }],
          recipients: [],
        },
      ],
    },
  });

  const subject = await identity({
    referenceId: "bench-subject",
    aliases: [subjectAlias, { type: "urn:svc:national-id", identifier: "19121212-1212" }],
  });
  const small = await identity({ referenceId: "bench-small" });
  const start = Date.now() - 30 * 86_400_000;
  for (let i = 0; i < smallHistory; i++) {
    await permission(permissionBody(small.identityId, requestedAt(start + i * 60_000), i % 2 ? "denied" : "approved"));
  }
  const large = await identity({ referenceId: "bench-large" });
  // The templates: a subject's first permission (creates its state) and a later one (replaces it).
  const sample = await identity({});
  const firstRequested = requestedAt(start - 86_400_000);
  const laterRequested = requestedAt(start - 86_400_000 + 1000);
  const first = await permission(permissionBody(sample.identityId, firstRequested));
  const later = await permission(permissionBody(sample.identityId, laterRequested));
  const expectedState = await ok(
    backend.GET("/privacy/v2/projects/{project_id}/identities/{identityId}/permission-state", { params: { path: { project_id: projectId, identityId: sample.identityId } } }),
  );
  // Let the tail work of the writes (outbox dispatch) finish, so the captured rows are in their final form.
  await new Promise((r) => setTimeout(r, 2000));
  await server.stop();

  log("capturing the template writes and cloning the bulk history");
  const tables = tablesOf(stateDir);
  const everything = readAll(stateDir, tables);
  const keepIds = new Set([projectId, client.clientId, controller.partyId, mailer.partyId, email.dataGroupId, phone.dataGroupId, marketing.purposeId]);
  const identityCapture = captureWrite(everything, sample.identityId);
  const identityTemplate = template({ identities: identityCapture.identities }, { keepIds, subjectId: sample.identityId });
  const firstTemplate = template(withoutState(captureWrite(everything, first.requestId)), { keepIds, subjectId: sample.identityId, requested: firstRequested });
  const laterCapture = captureWrite(everything, later.requestId);
  const laterTemplate = template(laterCapture, { keepIds, subjectId: sample.identityId, requested: laterRequested });
  if (!laterCapture[stateTable]?.length) throw new Error(`the template permission left no ${stateTable} row`);

  // Inside the state directory, so it goes with it whatever happens.
  const workDir = mkdtempSync(join(stateDir, "bulk-sql-"));
  const loader = new SqlLoader(stateDir, workDir, tables.map((t) => t.name), log);
  const bulk = [];
  for (let i = 0; i < bulkIdentities; i++) {
    const at = start - 86_400_000 + 2000 + i;
    const identityId = idAt("idn", at);
    loader.insertAll(cloneRows(identityTemplate, mappingFor(identityTemplate, { subjectId: identityId, at })));
    bulk.push(identityId);
  }
  // Every subject's history in one interleaved timeline, oldest first, a few seconds apart.
  const timeline = [...Array(largeHistory).fill(large.identityId), ...bulk.flatMap((id) => Array(requestsPerBulkIdentity).fill(id))];
  shuffle(timeline);
  const lastMapping = new Map();
  const step = Math.floor((29 * 86_400_000) / timeline.length);
  timeline.forEach((identityId, i) => {
    const at = start + i * step;
    const t = lastMapping.has(identityId) ? laterTemplate : firstTemplate;
    const mapping = mappingFor(t, { subjectId: identityId, at, requested: requestedAt(at) });
    loader.insertAll(cloneRows(t, mapping, Object.keys(t.captured).filter((name) => name !== stateTable)));
    lastMapping.set(identityId, mapping);
  });
  // Every subject has more than one request, so its last came from the later template, whose state row fits.
  for (const mapping of lastMapping.values()) loader.insertAll(cloneRows(laterTemplate, mapping, [stateTable]), { replace: true });
  loader.flush();
  const purposeIds = [marketing.purposeId, ...[1, 2, 3].map((i) => idAt("pur", start + i))];
  const analyticsTo = new Date().toISOString().slice(0, 10);
  const analyticsFrom = new Date(Date.parse(analyticsTo) - (analyticsDays - 1) * 86_400_000).toISOString().slice(0, 10);
  const analyticsRows = loadAnalytics(stateDir, workDir, projectId, purposeIds, analyticsTo);
  log(`generated ${analyticsDays} days of banner analytics: ${JSON.stringify(analyticsRows)}`);
  rmSync(workDir, { recursive: true, force: true });

  server = await startServer(stateDir, { adminToken: server.adminToken, signingKeys: server.signingKeys });
  setServer(server);
  const fresh = apiClient(server.baseUrl, server.adminToken);
  const token = await fresh.tokenFor(client);
  const reader = fresh.as(token);
  const lastOfLarge = lastMapping.get(large.identityId);
  const largeState = await ok(
    reader.GET("/privacy/v2/projects/{project_id}/identities/{identityId}/permission-state", { params: { path: { project_id: projectId, identityId: large.identityId } } }),
  );
  const want = lastOfLarge.get(later.requestId);
  if (largeState.purposes.length !== expectedState.purposes.length || largeState.purposes[0].requestId !== want) {
    throw new Error(`cloned history does not read back as the API wrote it: ${JSON.stringify(largeState)}`);
  }
  const listed = (query) => ok(reader.GET("/privacy/v2/projects/{project_id}/permissions", { params: { ...project, query: { identityId: large.identityId, status: "completed", ...query } } }));
  const page = await listed({});
  if (page.items.length !== 50 || !page.nextCursor) throw new Error("the large subject's history does not list");
  // A cursor half-way through the large subject's history, so scenario (7) also reads a deep page.
  let deepCursor = page.nextCursor;
  for (let i = 0; i < 25; i++) {
    const next = (await listed({ limit: 200, cursor: deepCursor })).nextCursor;
    if (!next) break;
    deepCursor = next;
  }
  log(`loaded ${loader.rows.toLocaleString("en")} rows; the large subject's state reads back as written`);

  return {
    projectId,
    client,
    token,
    subjectId: subject.identityId,
    aliasKey: subjectAliasKey,
    smallId: small.identityId,
    largeId: large.identityId,
    bulkIds: bulk,
    deepCursor,
    purposeIds,
    analyticsFrom,
    analyticsTo,
    adminToken: server.adminToken,
    permissionBody,
    requestedAt,
    sizes: { small: smallHistory, large: largeHistory, all: bulkIdentities * requestsPerBulkIdentity + largeHistory },
    dataset: {
      identities: bulkIdentities + 4,
      "permission requests": smallHistory + 2 + timeline.length,
      "requests of the large subject": largeHistory,
      "requests of the small subject": smallHistory,
      ...analyticsRows,
    },
  };
}

const withoutState = (captured) => Object.fromEntries(Object.entries(captured).filter(([name]) => name !== stateTable));

/** Deterministic Fisher-Yates (a fixed LCG), so every run loads the same interleaving. */
function shuffle(list) {
  let seed = 42;
  for (let i = list.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [list[i], list[j]] = [list[j], list[i]];
  }
}
