// `npm run bench:profile`: where a request's server CPU goes, per scenario, in the lean runtime (`npm run serve`).
// Starts it with workerd's inspector open, seeds a small data set through the API, and for each scenario drives
// load with autocannon (32 connections, BENCH_PROFILE_SECONDS, default 5) while two CPU profiles are taken over the
// inspector: one of the Worker's isolate and one of the isolate that emulates D1 (its SQLite runs inside it).
// Samples of the Worker are attributed to the bundle module they ran in (or, for a native such as JSON.parse, to
// its caller's module), grouped by `groups` below. An isolate is sampled about every `samplingIntervalUs` while it
// runs and not at all while workerd's thread serves other isolates or waits, so a sample's time delta can span such
// a gap (tens of milliseconds under load): each sample stands for its delta capped at two intervals. Per request,
// Worker JS and the D1 emulation's isolate (its SQLite included) are their samples' time over the requests served;
// the rest of the CPU all the runtime's processes spent (from /proc, as `npm run bench` measures it; also split by
// process, user and system time) is workerd's own: HTTP, Miniflare's entry worker, the calls between isolates, storage.
// The profiler itself slows the run: read the split, not throughput.
// Writes bench/profile.json and prints the split BENCHMARKS.md#where-the-time-goes summarises.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { apiClient, ok } from "./api.mjs";
import { measure } from "./load.mjs";
import { scenarioList } from "./scenarios.mjs";
import { subjectAlias, subjectAliasKey } from "./seed.mjs";
import { buildClient, freePort, freshState, querySql, removeState, startServer } from "./server.mjs";

// Node 20 has no WebSocket client; Miniflare's own (a dependency of wrangler's) speaks to the inspector.
const WebSocket = createRequire(createRequire(import.meta.resolve("wrangler")).resolve("miniflare"))("ws");

const seconds = Number(process.env.BENCH_PROFILE_SECONDS ?? 5);
/** BENCH_PROFILE_SCENARIOS: ids to run (default all, e.g. "0,4,6"); BENCH_PROFILE_KEEP: a folder for the raw .cpuprofile files. */
const only = process.env.BENCH_PROFILE_SCENARIOS?.split(",").map(Number);
const keep = process.env.BENCH_PROFILE_KEEP;
const log = (...args) => console.log("[profile]", ...args);

/** Bundle module path -> group, first match wins. */
const groups = [
  [/^node_modules\/jose\/|^worker\/auth\//, "auth (token checks, JWT)"],
  [/^worker\/proof\/|^worker\/lib\/(canonical|crypto)\.ts/, "receipts and log (signing, hashing)"],
  [/^node_modules\/(zod|@hono\/zod-openapi)\/|schemas\.ts$/, "validation (zod)"],
  [/^node_modules\/drizzle-orm\/|^worker\/lib\/db\.ts|queries\.ts$|table\.ts$/, "query building and row mapping (drizzle)"],
  [/^node_modules\/hono\/|^worker\/(app|index)\.ts|^worker\/lib\/(router|errors|allowed-methods|html-headers)\.ts/, "routing and middleware (hono)"],
  [/^worker\//, "handlers (our other code)"],
  [/./, "other libraries"],
];

/** Line ranges of the bundle's modules, from esbuild's `// path` markers. */
function moduleMap(bundle) {
  const starts = [];
  bundle.split("\n").forEach((line, index) => {
    // A hoisted or linked node_modules outside the project is named by a relative path (`../../…/node_modules/…`).
    const match = /^\/\/ (?:\S*?\/)?((?:node_modules|worker)\/\S+)$/.exec(line);
    if (match) starts.push([index, match[1]]);
  });
  return (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found = "unknown";
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid][0] <= line) {
        found = starts[mid][1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

/**
 * Payload bytes a consent write stores, per table, averaged over what the run wrote (row contents, without SQLite's
 * page and index overhead): requests, request_purposes and log_entries stay; events go after their retention.
 */
const payloadBytes = (stateDir) =>
  querySql(
    stateDir,
    `SELECT 'requests' AS tbl, avg(length(id) + length(project_id) + length(family) + length(identity_id) + length(status) + length(requested) + 8
       + length(meta) + length(request) + length(created) + length(updated) + ifnull(length(receipt), 0)) AS bytes, count(*) AS n FROM requests
     UNION ALL SELECT 'request_purposes', avg(8 + length(project_id) + length(identity_id) + length(purpose_id) + length(request_id) + length(request_type)
       + 8 + length(status) + length(version) + length(requested) + 8 + length(data_groups) + length(processors) + length(recipients)), count(*) FROM request_purposes
     UNION ALL SELECT 'log_entries', avg(8 + length(project_id) + ifnull(length(identity_id), 0) + ifnull(length(request_id), 0)
       + ifnull(length(receipt_hash), 0) + length(entry_hash) + length(payload) + length(created)), count(*) FROM log_entries
     UNION ALL SELECT 'events', avg(length(id) + length(project_id) + length(type) + length(data) + length(created) + ifnull(length(dispatched), 0)), count(*) FROM events`,
  )[0];

/** Bytes of the local D1's SQLite files (database and write-ahead log): what a write adds to storage. */
function d1Bytes(stateDir) {
  const dir = join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

const samplingIntervalUs = 1000;

const groupOf = (module) => groups.find(([pattern]) => pattern.test(module))[1];

/** Milliseconds per group of one profile: each sample goes to its frame's module or its nearest bundle caller's. */
function attribute(profile, moduleAt) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const groupOfNode = new Map();
  const resolve = (id) => {
    if (groupOfNode.has(id)) return groupOfNode.get(id);
    const { callFrame } = byId.get(id);
    let group;
    if (callFrame.functionName === "(idle)") group = "idle";
    else if (callFrame.functionName === "(garbage collector)") group = "garbage collection";
    else if (callFrame.functionName === "(program)") group = "runtime (program)";
    else if (callFrame.url.endsWith("index.js")) group = groupOf(moduleAt(callFrame.lineNumber));
    else if (!callFrame.url && ["parse", "stringify"].includes(callFrame.functionName)) group = "serialisation (JSON)";
    // workerd's own JavaScript behind a binding (the D1 client: statements, batches, results) and what it calls.
    else if (callFrame.url.startsWith("cloudflare-internal:")) group = "runtime bindings (D1 client)";
    else group = parent.has(id) ? resolve(parent.get(id)) : "runtime (program)";
    groupOfNode.set(id, group);
    return group;
  };
  const ms = {};
  const functions = {};
  profile.samples.forEach((id, i) => {
    const group = resolve(id);
    const delta = Math.min(profile.timeDeltas[i] ?? 0, 2 * samplingIntervalUs) / 1000;
    ms[group] = (ms[group] ?? 0) + delta;
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    if (group === "idle") return;
    const name = `${functionName || "(anonymous)"} ${url.endsWith("index.js") ? moduleAt(lineNumber) : "(native)"}`;
    functions[name] = (functions[name] ?? 0) + delta;
  });
  return { ms, functions };
}

/** A Chrome DevTools protocol session with one isolate. */
async function inspect(url) {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  let next = 0;
  const pending = new Map();
  socket.on("message", (data) => {
    const message = JSON.parse(data);
    if (message.id && pending.has(message.id)) {
      pending.get(message.id)(message);
      pending.delete(message.id);
    }
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      pending.set(id, (message) => (message.error ? reject(new Error(message.error.message)) : resolve(message.result)));
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: samplingIntervalUs });
  return { send, close: () => socket.close() };
}

/** A small data set in the shape `scenarioList` takes (seed.mjs has the full one), made through the API. */
async function seedSmall(server) {
  const api = apiClient(server.baseUrl, server.adminToken);
  const { projectId } = await ok(api.admin.POST("/admin/v1/projects", { body: { name: "Profile", controller: { name: "Profile AB" } } }));
  const client = await ok(
    api.admin.POST("/admin/v1/projects/{project_id}/clients", { params: { path: { project_id: projectId } }, body: { name: "backend", type: "backend", allowedOrigins: [] } }),
  );
  const token = await api.tokenFor(client);
  const backend = api.as(token);
  const project = { path: { project_id: projectId } };
  const party = await ok(
    backend.POST("/privacy/v2/projects/{project_id}/configurations/parties", { params: project, body: { referenceId: "mailer", type: "company", details: { name: "Mailer" } } }),
  );
  const group = await ok(backend.POST("/privacy/v2/projects/{project_id}/configurations/data-groups", { params: project, body: { referenceId: "email", name: "E-mail" } }));
  const purpose = await ok(
    backend.POST("/privacy/v2/projects/{project_id}/configurations/purposes", {
      params: project,
      body: {
        referenceId: "marketing",
        name: "Marketing",
        legalGround: "consent",
        dataGroups: [group.dataGroupId],
        processors: [party.partyId],
        controllers: [party.partyId],
      },
    }),
  );
  const permissionBody = (identityId, requested, status) => ({
    identityId,
    requested,
    request: { purposes: [{ purposeId: purpose.purposeId, status, dataGroups: [{ dataGroupId: group.dataGroupId, status }], processors: [{ partyId: party.partyId, status }], recipients: [] }] },
  });
  const requestedAt = (ms) => new Date(ms).toISOString();
  const decide = (identityId, i) =>
    ok(backend.POST("/privacy/v2/projects/{project_id}/permissions", { params: project, body: permissionBody(identityId, requestedAt(Date.now() - 1000), i % 2 ? "denied" : "approved") }));
  const subjects = [];
  for (let i = 0; i < 200; i++) {
    const body = i === 1 ? { aliases: [subjectAlias] } : {};
    subjects.push((await ok(backend.POST("/privacy/v2/projects/{project_id}/identities", { params: project, body }))).identityId);
  }
  const [small] = subjects;
  const large = subjects.at(-1); // two full list pages (50 items each) of completed permissions
  const sizes = { small: 10, large: 101 };
  for (let i = 0; i < sizes.small; i++) await decide(small, i);
  for (let i = 0; i < sizes.large; i++) await decide(large, i);
  const { nextCursor } = await ok(
    backend.GET("/privacy/v2/projects/{project_id}/permissions", { params: { ...project, query: { status: "completed", identityId: large } } }),
  );
  return {
    projectId,
    client,
    token,
    subjectId: subjects[1],
    aliasKey: subjectAliasKey,
    smallId: small,
    largeId: large,
    bulkIds: subjects.slice(0, -1),
    deepCursor: nextCursor,
    permissionBody,
    requestedAt,
    sizes: { ...sizes, all: sizes.small + sizes.large },
  };
}

log("building the Worker bundle and a fresh local state");
await buildClient();
const stateDir = await freshState();
const inspectorPort = await freePort();
let server;
try {
  server = await startServer(stateDir, undefined, "lean", ["--inspector-port", String(inspectorPort)]);
  const fixture = await seedSmall(server);
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
  log("isolates:", targets.map((t) => t.id).join(", "));
  const urlOf = (id) => targets.find((t) => t.id === id)?.webSocketDebuggerUrl;
  const worker = await inspect(urlOf("core:user:assent"));
  const d1 = await inspect(urlOf("d1:db"));
  const moduleAt = moduleMap(readFileSync("dist/worker/index.js", "utf8"));
  const results = [];
  for (const scenario of scenarioList(fixture).filter(({ id }) => !only || only.includes(id))) {
    await measure(server.baseUrl, scenario, { seconds: 1, warmupSeconds: 0 });
    const bytesBefore = d1Bytes(stateDir);
    await Promise.all([worker.send("Profiler.start"), d1.send("Profiler.start")]);
    const byProcessBefore = server.cpuSecondsByCommand();
    const figures = await measure(server.baseUrl, scenario, { seconds, warmupSeconds: 0, cpuSeconds: server.cpuSeconds });
    const byProcessAfter = server.cpuSecondsByCommand();
    const [{ profile: workerProfile }, { profile: d1Profile }] = await Promise.all([worker.send("Profiler.stop"), d1.send("Profiler.stop")]);
    if (keep) writeFileSync(join(keep, `scenario-${scenario.id}.cpuprofile`), JSON.stringify(workerProfile));
    const worker_ = attribute(workerProfile, moduleAt);
    const storage = attribute(d1Profile, () => "d1");
    // An isolate's own work is what its profile saw as neither idle nor "(program)" (workerd's native work).
    const own = (ms) => Object.entries(ms).filter(([group]) => !["idle", "runtime (program)"].includes(group)).reduce((sum, [, v]) => sum + v, 0);
    const workerOwn = own(worker_.ms);
    const storageOwn = own(storage.ms);
    const ms = (part) => Math.round((part / figures.requests) * 100) / 100;
    const percent = (part, whole) => Math.round((1000 * part) / whole) / 10;
    const row = {
      scenario: `(${scenario.id}) ${scenario.name}`,
      requestsPerSecond: figures.requestsPerSecond,
      cpuMsPerRequest: figures.cpuMsPerRequest,
      storageBytesPerRequest: Math.round((d1Bytes(stateDir) - bytesBefore) / figures.requests),
      workerMsPerRequest: ms(workerOwn),
      bindingMsPerRequest: ms(worker_.ms["runtime bindings (D1 client)"] ?? 0),
      d1MsPerRequest: ms(storageOwn),
      runtimeMsPerRequest: Math.round((figures.cpuMsPerRequest - ms(workerOwn) - ms(storageOwn)) * 100) / 100,
      cpuMsPerRequestByProcess: Object.fromEntries(
        Object.entries(byProcessAfter).map(([command, after]) => [command, ms((after - (byProcessBefore[command] ?? 0)) * 1000)]),
      ),
      workerGroupsPercent: Object.fromEntries(
        Object.entries(worker_.ms)
          .filter(([group]) => !["idle", "runtime (program)"].includes(group))
          .sort((a, b) => b[1] - a[1])
          .map(([group, v]) => [group, percent(v, workerOwn)]),
      ),
      topFunctionsPercent: Object.fromEntries(
        Object.entries(worker_.functions)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 12)
          .filter(([name]) => !name.startsWith("(program)"))
          .map(([name, v]) => [name, percent(v, workerOwn)]),
      ),
    };
    results.push(row);
    log(JSON.stringify(row));
  }
  worker.close();
  d1.close();
  console.table(
    results.map((r) => ({
      scenario: r.scenario,
      "CPU ms/req": r.cpuMsPerRequest,
      "Worker JS": r.workerMsPerRequest,
      "of it D1 client": r.bindingMsPerRequest,
      "D1 isolate JS": r.d1MsPerRequest,
      "workerd native, Node": r.runtimeMsPerRequest,
      ...Object.fromEntries(Object.entries(r.cpuMsPerRequestByProcess).map(([command, v]) => [`CPU in ${command}`, v])),
    })),
  );
  for (const r of results) {
    log(r.scenario, Object.entries(r.workerGroupsPercent).map(([g, p]) => `${g} ${p}%`).join("; "));
    log("  top:", Object.entries(r.topFunctionsPercent).map(([f, p]) => `${f} ${p}%`).join("; "));
  }
  await server.stop();
  const payload = payloadBytes(stateDir);
  log("payload bytes per row:", JSON.stringify(payload));
  writeFileSync("bench/profile.json", JSON.stringify({ date: new Date().toISOString(), seconds, results, payload }, null, 2) + "\n");
} finally {
  await server?.stop();
  removeState(stateDir);
}
