// Where each binding of wrangler.toml keeps its data, as Cloudflare says (docs/operations.md#data-residency), and
// whether that meets a declared RESIDENCY. `npm run deploy` prints it and refuses to upload past a problem.
import { execFile } from "node:child_process";

/**
 * The kinds of binding that hold data, and what Cloudflare lets an operator choose about their location: D1 and
 * Queues take a jurisdiction when created (never changed later); KV has none, its values are replicated to every
 * Cloudflare location, so it holds no personal data (every key prefix the Worker writes is classified so).
 */
const kinds = {
  d1: {
    label: "D1 database",
    move: (name, jurisdiction) =>
      `create one (npx wrangler d1 create ${name}-${jurisdiction} --jurisdiction ${jurisdiction}), move the data and point wrangler.toml at it`,
  },
  queue: {
    label: "queue",
    move: (name, jurisdiction) =>
      `create ${name}-${jurisdiction} with jurisdiction ${jurisdiction} (dashboard or the Queues REST API; wrangler 4.86 has no flag) and point wrangler.toml at it`,
  },
  kv: { label: "KV namespace" },
};

const placeholderId = /^0+(-0+)*$/;

/** The bindings of a wrangler config (as wrangler's readConfig returns it) that hold data, queues once each. */
export function dataBindings(config) {
  const d1 = (config.d1_databases ?? []).map((db) => ({ kind: "d1", binding: db.binding, name: db.database_name ?? db.binding, id: db.database_id }));
  const queues = new Map();
  for (const { binding, queue } of config.queues?.producers ?? []) queues.set(queue, binding);
  for (const { queue, dead_letter_queue: dead } of config.queues?.consumers ?? []) {
    if (!queues.has(queue)) queues.set(queue, "(consumer)");
    if (dead && !queues.has(dead)) queues.set(dead, "(dead letters)");
  }
  const queue = [...queues].map(([name, binding]) => ({ kind: "queue", binding, name }));
  const kv = (config.kv_namespaces ?? []).map((ns) => ({ kind: "kv", binding: ns.binding, name: ns.id }));
  return [...d1, ...queue, ...kv];
}

/**
 * Where a binding lives: `{ jurisdiction }` (a name, or null for none) or `{ unknown }` (why not).
 * `answers` is what Cloudflare said: `{ d1: { [databaseId]: jurisdiction | null | undefined }, queues: { [name]: … } }`
 * (undefined: its answer did not say), or `{ error }` when it could not be asked.
 */
function locationOf(binding, answers) {
  if (binding.kind === "kv") return { jurisdiction: null };
  if (binding.kind === "d1" && (!binding.id || placeholderId.test(binding.id))) return { unknown: "placeholder database_id" };
  if (answers.error) return { unknown: "could not ask Cloudflare" };
  const known = binding.kind === "d1" ? answers.d1 : answers.queues;
  const key = binding.kind === "d1" ? binding.id : binding.name;
  if (!known || !(key in known)) return { unknown: `Cloudflare has no ${kinds[binding.kind].label} ${key} in this account` };
  if (known[key] === undefined) return { unknown: "Cloudflare's answer names no jurisdiction" };
  return { jurisdiction: known[key] };
}

const describe = (binding, location) => {
  if (binding.kind === "kv") return "no location (KV has none: replicated everywhere); holds no personal data";
  if ("unknown" in location) return `unknown (${location.unknown})`;
  return location.jurisdiction ? `jurisdiction ${location.jurisdiction}` : "no jurisdiction: anywhere in Cloudflare's network";
};

/**
 * The services outside Cloudflare that the configuration ([vars]) sends personal data to: no jurisdiction of
 * Cloudflare's covers them, so the report names them for the operator to check (each is a processor of its own).
 */
export function outsideReceivers(config) {
  const vars = config.vars ?? {};
  const host = (url) => {
    try {
      return new URL(url).host;
    } catch {
      return String(url);
    }
  };
  const receivers = [];
  if (vars.SMS_HUB_UPSTREAM_URL) receivers.push(["SMS_HUB_UPSTREAM_URL", host(vars.SMS_HUB_UPSTREAM_URL), "phone numbers and texts"]);
  let routes = {};
  try {
    routes = typeof vars.SMS_ROUTES === "string" ? JSON.parse(vars.SMS_ROUTES) : (vars.SMS_ROUTES ?? {});
  } catch {
    // A malformed SMS_ROUTES is /readyz's to report; it sends nothing anywhere.
  }
  for (const [name, route] of Object.entries(routes ?? {})) {
    receivers.push([`SMS_ROUTES ${name}`, route?.baseUrl ? host(route.baseUrl) : String(route?.adapter), "phone numbers and texts"]);
  }
  if (vars.BILLING_UPSTREAM_URL) receivers.push(["BILLING_UPSTREAM_URL", host(vars.BILLING_UPSTREAM_URL), "billing account numbers"]);
  return receivers;
}

/**
 * The preflight's table (one line per binding) and, when `residency` names a jurisdiction (RESIDENCY=eu), a problem
 * for every binding not confirmed to be in it. A binding Cloudflare could not be asked about is a problem too: a
 * declared residency is refused rather than assumed.
 */
export function residencyReport(config, answers, residency) {
  const wanted = residency?.trim().toLowerCase() || undefined;
  const rows = dataBindings(config).map((binding) => ({ binding, location: locationOf(binding, answers) }));
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map(({ binding }) => [binding.binding, kinds[binding.kind].label, binding.name][column].length)));
  const lines = [
    `Where the Worker's data lives${wanted ? ` (RESIDENCY=${wanted})` : ""}:`,
    ...rows.map(({ binding, location }) => {
      const cells = [binding.binding, kinds[binding.kind].label, binding.name].map((cell, i) => cell.padEnd(widths[i]));
      return `  ${cells.join("  ")}  ${describe(binding, location)}`;
    }),
  ];
  if (answers.error) lines.push(`  (could not ask Cloudflare: ${answers.error})`);
  const outside = outsideReceivers(config);
  if (outside.length > 0) {
    const width = (column) => Math.max(...outside.map((row) => row[column].length));
    lines.push(
      "Personal data sent outside Cloudflare (where each receiver keeps it is yours to check):",
      ...outside.map(([setting, where, what]) => `  ${setting.padEnd(width(0))}  ${where.padEnd(width(1))}  ${what}`),
    );
  }
  const problems = [];
  if (wanted) {
    for (const { binding, location } of rows) {
      if (binding.kind === "kv" || location.jurisdiction === wanted) continue;
      const what = `${kinds[binding.kind].label} ${binding.name} ${binding.binding.startsWith("(") ? binding.binding : `(binding ${binding.binding})`}`;
      problems.push(
        "unknown" in location
          ? `${what}: RESIDENCY=${wanted} cannot be confirmed, ${describe(binding, location)}`
          : `${what} is not in the ${wanted} jurisdiction (${describe(binding, location)}); a jurisdiction is set at creation only: ${kinds[binding.kind].move(binding.name, wanted)} (docs/operations.md#data-residency)`,
      );
    }
  }
  return { lines, problems };
}

/** What a failed wrangler command said: its [ERROR] line (colours removed), else its last line. */
export function wranglerError(output) {
  const lines = output.replace(/\x1b\[[0-9;]*m/g, "").split("\n").map((line) => line.trim()).filter(Boolean);
  const error = lines.find((line) => line.includes("[ERROR]"));
  return error ? error.slice(error.indexOf("[ERROR]") + "[ERROR]".length).trim() : (lines.filter((line) => !line.includes("Logs were written")).at(-1) ?? "");
}

const wranglerJson = (args, env) =>
  new Promise((resolve, reject) =>
    execFile("npx", ["wrangler", ...args], { env }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`wrangler ${args.join(" ")}: ${wranglerError(`${stdout}${stderr}`) || error.message}`));
      try {
        resolve(JSON.parse(stdout.slice(stdout.indexOf("{"))));
      } catch {
        reject(new Error(`wrangler ${args.join(" ")} printed no JSON`));
      }
    }),
  );

/** The API credentials wrangler itself uses: CLOUDFLARE_API_TOKEN, else its login (wrangler auth token). */
async function credentials(config, env) {
  const auth = env.CLOUDFLARE_API_TOKEN ? { type: "api_token", token: env.CLOUDFLARE_API_TOKEN } : await wranglerJson(["auth", "token", "--json"], env);
  const headers = auth.type === "api_key" ? { "X-Auth-Key": auth.key, "X-Auth-Email": auth.email } : { authorization: `Bearer ${auth.token}` };
  let account = env.CLOUDFLARE_ACCOUNT_ID ?? config.account_id;
  if (!account) {
    const { accounts = [] } = await wranglerJson(["whoami", "--json"], env);
    if (accounts.length !== 1) throw new Error(`the login reaches ${accounts.length} accounts: set CLOUDFLARE_ACCOUNT_ID`);
    account = accounts[0].id;
  }
  return { headers, account };
}

/**
 * Asks Cloudflare's API where the config's D1 databases and queues are. Never throws: whatever goes wrong (offline,
 * not logged in) comes back as `{ error }`, which the report shows as "unknown (could not ask Cloudflare)".
 */
export async function askCloudflare(config, env = process.env) {
  try {
    const { headers, account } = await credentials(config, env);
    const base = `${(env.CLOUDFLARE_API_BASE_URL ?? "https://api.cloudflare.com/client/v4").replace(/\/+$/, "")}/accounts/${account}`;
    const get = async (path) => {
      const reply = await fetch(`${base}${path}`, { headers, signal: AbortSignal.timeout(15_000) });
      const body = await reply.json().catch(() => null);
      return { status: reply.status, body };
    };
    const jurisdictionIn = (result) => (result && "jurisdiction" in result ? (result.jurisdiction ?? null) : undefined);
    const d1 = {};
    for (const binding of dataBindings(config).filter((b) => b.kind === "d1" && b.id && !placeholderId.test(b.id))) {
      const { status, body } = await get(`/d1/database/${binding.id}`);
      if (status === 404) continue;
      if (!body?.success) throw new Error(`GET /d1/database/${binding.id} answered ${status}`);
      d1[binding.id] = jurisdictionIn(body.result);
    }
    const queues = {};
    for (let page = 1; ; page++) {
      const { status, body } = await get(`/queues?page=${page}&per_page=100`);
      if (!body?.success) throw new Error(`GET /queues answered ${status}`);
      for (const queue of body.result ?? []) queues[queue.queue_name] = jurisdictionIn(queue);
      // Pages as the answer counts them (result_info), else a full page means there may be another.
      const pages = body.result_info?.total_pages;
      if (pages !== undefined ? page >= pages : (body.result ?? []).length < 100) break;
    }
    return { d1, queues };
  } catch (error) {
    return { error: error.cause?.code ? `${error.message} (${error.cause.code})` : error.message };
  }
}
