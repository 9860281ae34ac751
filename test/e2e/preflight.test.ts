// The checks `npm start` and `npm run deploy` make before doing anything; the residency checks with fixture configs
// and a stand-in for Cloudflare's API.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { databaseMapProblems, deployProblems, portProblem, requiredSecrets, scannerProblems } from "../../scripts/preflight.mjs";
import { askCloudflare, dataBindings, residencyReport, wranglerError } from "../../scripts/residency.mjs";

describe("deploy preflight", () => {
  const shipped = readFileSync("wrangler.toml", "utf8");

  it("refuses the shipped wrangler.toml, naming both placeholder ids, the missing ISSUER and each missing secret", () => {
    const problems = deployProblems(shipped, []);
    expect(problems.filter((p) => p.includes("placeholder D1 database_id"))).toHaveLength(1);
    expect(problems.filter((p) => p.includes("placeholder KV namespace id"))).toHaveLength(1);
    expect(problems.some((p) => p.startsWith("ISSUER is not set"))).toBe(true);
    for (const name of requiredSecrets) expect(problems).toContain(`secret ${name} is missing: npx wrangler secret put ${name}`);
  });

  it("accepts real ids, an ISSUER and every secret", () => {
    const configured = shipped
      .replace(/database_id = "0+(-0+)*"/, 'database_id = "8a7c2a4e-9c1d-4f0e-9b9a-2f6d3c1e5a7b"')
      .replace(/^id = "0+"/m, 'id = "3f2a9c7e1b4d4e8f9a0b1c2d3e4f5a6b"')
      .replace("[vars]", '[vars]\nISSUER = "https://consent.example.com"');
    expect(deployProblems(configured, [...requiredSecrets])).toEqual([]);
  });
});

describe("scanner's Worker preflight", () => {
  const scanner = unstable_readConfig({ config: "scanner/worker/wrangler.toml" });
  /** The SCANNER binding as wrangler.toml ships it, commented out: uncommented, as an operator enables scans. */
  const shippedBinding = () => {
    const block = /^# \[\[services\]\]\n((?:# .*\n)+)/m.exec(readFileSync("wrangler.toml", "utf8"))![1].replace(/^# /gm, "");
    return Object.fromEntries([...block.matchAll(/^(\w+) = "([^"]*)"$/gm)].map(([, key, value]) => [key, value]));
  };

  it("accepts the shipped binding, uncommented, against the scanner's own config", () => {
    expect(shippedBinding()).toMatchObject({ binding: "SCANNER" });
    expect(scannerProblems(shippedBinding(), scanner)).toEqual([]);
  });

  it("refuses a binding to another Worker or without the Scanner entrypoint, and a scanner without Browser Rendering", () => {
    expect(scannerProblems({ binding: "SCANNER", service: "scanner", entrypoint: "Scanner" }, scanner)).toEqual([expect.stringContaining('deploys "assent-scanner"')]);
    expect(scannerProblems({ binding: "SCANNER", service: "assent-scanner" }, scanner)).toEqual([expect.stringContaining('entrypoint = "Scanner"')]);
    expect(scannerProblems(shippedBinding(), { ...scanner, browser: undefined })).toEqual([expect.stringContaining("no [browser] binding")]);
  });
});

describe("database map preflight", () => {
  const shipped = readFileSync("wrangler.toml", "utf8");
  const withShard = shipped.replace(
    "[[kv_namespaces]]",
    '[[d1_databases]]\nbinding = "DB_SHARD_1"\ndatabase_name = "assent-shard-1"\ndatabase_id = "x"\nmigrations_dir = "drizzle"\n\n[[kv_namespaces]]',
  );
  const mapping = (toml: string, map: string) => databaseMapProblems(toml.replace(/^\[vars\]$/m, `[vars]\nPROJECT_DATABASES = '${map}'`));

  it("accepts no map, and a map naming DB and declared bindings", () => {
    expect(databaseMapProblems(shipped)).toEqual([]);
    expect(mapping(withShard, '{"prj_a": "DB_SHARD_1", "prj_b": "DB"}')).toEqual([]);
  });

  it("refuses a map naming a binding wrangler.toml does not declare, or no map at all", () => {
    expect(mapping(shipped, '{"prj_a": "DB_SHARD_1"}')).toEqual([
      'PROJECT_DATABASES maps prj_a to "DB_SHARD_1", which is no [[d1_databases]] binding in wrangler.toml',
    ]);
    expect(mapping(withShard, "[]")[0]).toMatch(/^PROJECT_DATABASES is not a JSON object/);
    expect(mapping(withShard, "{oops")[0]).toMatch(/^PROJECT_DATABASES is not a JSON object/);
  });
});

describe("start preflight", () => {
  it("names the fix when the port is taken, and passes a free one", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    expect(await portProblem(String(port), "127.0.0.1")).toBe(
      `Port ${port} is taken (another \`npm start\`?). Start on another port: PORT=${port + 1} npm start`,
    );
    await new Promise((resolve) => server.close(resolve));
    expect(await portProblem(String(port), "127.0.0.1")).toBeNull();
  });
});

describe("residency preflight", () => {
  const shipped = readFileSync("wrangler.toml", "utf8");
  const folder = mkdtempSync(join(tmpdir(), "assent-residency-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  let written = 0;
  /** A wrangler.toml made from the shipped one, written beside the others, and its path. */
  const tomlFile = (text: string) => {
    const path = join(folder, `wrangler-${++written}.toml`);
    writeFileSync(path, text);
    return path;
  };
  const dbId = "8a7c2a4e-9c1d-4f0e-9b9a-2f6d3c1e5a7b";
  const shardId = "5d0c4b7a-1e2f-4a3b-8c9d-0e1f2a3b4c5d";
  const configured = shipped
    .replace(/database_id = "0+(-0+)*"/, `database_id = "${dbId}"`)
    .replace(/^id = "0+"/m, 'id = "3f2a9c7e1b4d4e8f9a0b1c2d3e4f5a6b"')
    .replace("[vars]", '[vars]\nISSUER = "https://consent.example.com"')
    .replace(
      "[[kv_namespaces]]",
      `[[d1_databases]]\nbinding = "DB_SHARD_1"\ndatabase_name = "assent-shard-1"\ndatabase_id = "${shardId}"\nmigrations_dir = "drizzle"\n\n[[kv_namespaces]]`,
    );
  const config = unstable_readConfig({ config: tomlFile(configured) });
  const allEu = { d1: { [dbId]: "eu", [shardId]: "eu" }, queues: { "assent-webhooks": "eu", "assent-cron": "eu", "assent-webhooks-dead": "eu" } };

  it("lists every binding holding data, each queue once (the dead-letter queue too)", () => {
    expect(dataBindings(config).map((b) => `${b.kind} ${b.binding} ${b.name}`)).toEqual([
      `d1 DB assent`,
      `d1 DB_SHARD_1 assent-shard-1`,
      "queue WEBHOOK_QUEUE assent-webhooks",
      "queue CRON_QUEUE assent-cron",
      "queue (dead letters) assent-webhooks-dead",
      "kv KV 3f2a9c7e1b4d4e8f9a0b1c2d3e4f5a6b",
    ]);
  });

  it("says where each binding is; without RESIDENCY it refuses nothing", () => {
    const { lines, problems } = residencyReport(config, { ...allEu, d1: { [dbId]: "eu", [shardId]: null } }, undefined);
    expect(lines[0]).toBe("Where the Worker's data lives:");
    expect(lines.slice(1).map((line) => line.replace(/\s+/g, " ").trim())).toEqual([
      "DB D1 database assent jurisdiction eu",
      "DB_SHARD_1 D1 database assent-shard-1 no jurisdiction: anywhere in Cloudflare's network",
      "WEBHOOK_QUEUE queue assent-webhooks jurisdiction eu",
      "CRON_QUEUE queue assent-cron jurisdiction eu",
      "(dead letters) queue assent-webhooks-dead jurisdiction eu",
      "KV KV namespace 3f2a9c7e1b4d4e8f9a0b1c2d3e4f5a6b no location (KV has none: replicated everywhere); holds no personal data",
    ]);
    expect(problems).toEqual([]);
  });

  it("with RESIDENCY=eu refuses each D1 database and queue outside the EU or unknown to Cloudflare, and accepts them all in the EU", () => {
    const answers = { d1: { [dbId]: "eu", [shardId]: null }, queues: { "assent-webhooks": "eu", "assent-cron": "eu" } };
    const { problems } = residencyReport(config, answers, "EU");
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^D1 database assent-shard-1 \(binding DB_SHARD_1\) is not in the eu jurisdiction \(no jurisdiction: .*npx wrangler d1 create assent-shard-1-eu --jurisdiction eu/);
    expect(problems[1]).toBe(
      "queue assent-webhooks-dead (dead letters): RESIDENCY=eu cannot be confirmed, unknown (Cloudflare has no queue assent-webhooks-dead in this account)",
    );
    expect(residencyReport(config, allEu, "eu").problems).toEqual([]);
    // A jurisdiction Cloudflare's answer leaves out is not taken for the EU.
    expect(residencyReport(config, { ...allEu, queues: { ...allEu.queues, "assent-webhooks": undefined } }, "eu").problems).toEqual([
      "queue assent-webhooks (binding WEBHOOK_QUEUE): RESIDENCY=eu cannot be confirmed, unknown (Cloudflare's answer names no jurisdiction)",
    ]);
  });

  it("offline says unknown (could not ask Cloudflare) for D1 and queues, and RESIDENCY=eu then refuses", () => {
    const offline = { error: "fetch failed (ENOTFOUND)" };
    const { lines, problems } = residencyReport(config, offline, "eu");
    expect(lines.filter((line) => line.endsWith("unknown (could not ask Cloudflare)"))).toHaveLength(5);
    expect(lines.at(-1)).toBe("  (could not ask Cloudflare: fetch failed (ENOTFOUND))");
    expect(problems).toHaveLength(5);
    expect(residencyReport(config, offline, undefined).problems).toEqual([]);
    // The shipped template's placeholder id is not asked about at all.
    expect(residencyReport(unstable_readConfig({ config: "wrangler.toml" }), allEu, "eu").problems[0]).toBe(
      "D1 database assent (binding DB): RESIDENCY=eu cannot be confirmed, unknown (placeholder database_id)",
    );
  });

  it("names every outside service the configuration sends personal data to, which no jurisdiction covers", () => {
    const withUpstreams = configured.replace(
      "[vars]",
      `[vars]\nSMS_HUB_UPSTREAM_URL = "https://sms-gateway.example/v1/messages"\nBILLING_UPSTREAM_URL = "https://billing.example.com/accounts"\nSMS_ROUTES = '{"sms_hub":{"adapter":"46elks","fallback":"twilio"},"twilio":{"adapter":"twilio"}}'`,
    );
    const { lines, problems } = residencyReport(unstable_readConfig({ config: tomlFile(withUpstreams) }), allEu, "eu");
    expect(lines.slice(-5).map((line) => line.replace(/\s+/g, " ").trim())).toEqual([
      "Personal data sent outside Cloudflare (where each receiver keeps it is yours to check):",
      "SMS_HUB_UPSTREAM_URL sms-gateway.example phone numbers and texts",
      "SMS_ROUTES sms_hub 46elks phone numbers and texts",
      "SMS_ROUTES twilio twilio phone numbers and texts",
      "BILLING_UPSTREAM_URL billing.example.com billing account numbers",
    ]);
    expect(problems).toEqual([]);
    expect(residencyReport(config, allEu, "eu").lines.join("\n")).not.toContain("outside Cloudflare");
  });

  it("reads the error out of wrangler's coloured output", () => {
    const output = '\n\x1b[31m✘ \x1b[41;31m[\x1b[41;97mERROR\x1b[41;31m]\x1b[0m \x1b[1mNot logged in. Please run `wrangler login` to authenticate.\x1b[0m\n\n\n🪵  Logs were written to "/root/.config/.wrangler/logs/w.log"\n';
    expect(wranglerError(output)).toBe("Not logged in. Please run `wrangler login` to authenticate.");
    expect(wranglerError('fetch failed\n🪵  Logs were written to "x.log"\n')).toBe("fetch failed");
  });

  describe("asking Cloudflare", () => {
    const seen: string[] = [];
    let queues: Array<Record<string, unknown>> = [];
    const api = createHttpServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
      res.setHeader("content-type", "application/json");
      const ok = (result: unknown) => res.end(JSON.stringify({ success: true, errors: [], messages: [], result }));
      const url = req.url ?? "";
      if (url.endsWith("/workers/scripts/assent/secrets")) return ok(requiredSecrets.map((name) => ({ name, type: "secret_text" })));
      if (url.endsWith(`/d1/database/${dbId}`)) return ok({ uuid: dbId, name: "assent", jurisdiction: "eu" });
      if (url.endsWith(`/d1/database/${shardId}`)) return ok({ uuid: shardId, name: "assent-shard-1", jurisdiction: null });
      if (url.includes("/queues?")) return ok(queues);
      res.statusCode = 404;
      res.end(JSON.stringify({ success: false, errors: [{ code: 10007, message: "not found" }], messages: [], result: null }));
    });
    let base = "";
    beforeAll(async () => {
      await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
      base = `http://127.0.0.1:${(api.address() as AddressInfo).port}/client/v4`;
    });
    afterAll(() => new Promise((resolve) => api.close(resolve)));
    const env = () => ({ ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_API_TOKEN: "test-token", CLOUDFLARE_ACCOUNT_ID: "acc-1", CLOUDFLARE_API_BASE_URL: base });

    it("reads each database's and queue's jurisdiction from the API with wrangler's credentials", async () => {
      queues = [{ queue_name: "assent-webhooks", jurisdiction: "eu" }, { queue_name: "assent-cron", jurisdiction: "eu" }, { queue_name: "assent-webhooks-dead" }];
      expect(await askCloudflare(config, env())).toEqual({
        d1: { [dbId]: "eu", [shardId]: null },
        queues: { "assent-webhooks": "eu", "assent-cron": "eu", "assent-webhooks-dead": undefined },
      });
      expect(seen).toContain(`GET /client/v4/accounts/acc-1/d1/database/${dbId} Bearer test-token`);
      expect(seen).toContain("GET /client/v4/accounts/acc-1/queues?page=1&per_page=100 Bearer test-token");
    });

    it("answers with the reason instead of throwing when the API cannot be reached", async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const answers = await askCloudflare(config, { ...env(), CLOUDFLARE_API_BASE_URL: `http://127.0.0.1:${port}/client/v4` });
      expect(answers).toEqual({ error: "fetch failed (ECONNREFUSED)" });
    });

    const preflight = (toml: string, residency: string) =>
      new Promise<{ code: number; output: string }>((resolve) =>
        execFile("node", ["scripts/deploy.mjs", "--check", "--config", tomlFile(toml)], { env: { ...env(), RESIDENCY: residency } }, (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code) : 0, output: `${stdout}${stderr}` }),
        ),
      );

    // Each run loads wrangler and starts it (the secret list): a minute or more on a loaded machine, so a generous limit.
    it("npm run preflight prints the table and is ready when every binding is in the EU", async () => {
      queues = [{ queue_name: "assent-webhooks", jurisdiction: "eu" }, { queue_name: "assent-cron", jurisdiction: "eu" }, { queue_name: "assent-webhooks-dead", jurisdiction: "eu" }];
      const withoutShard = configured.replace(/\[\[d1_databases\]\]\nbinding = "DB_SHARD_1"[^[]*/, "");
      const ready = await preflight(withoutShard, "eu");
      expect(ready.output, ready.output).toMatch(/Where the Worker's data lives \(RESIDENCY=eu\):\n\s+DB\s+D1 database\s+assent\s+jurisdiction eu\n/);
      expect(ready.output).toMatch(/Ready to deploy\./);
      expect(ready.code).toBe(0);
    }, 300_000);

    it("npm run preflight under RESIDENCY=eu refuses the one binding outside the EU", async () => {
      queues = [{ queue_name: "assent-webhooks", jurisdiction: "eu" }, { queue_name: "assent-cron", jurisdiction: "eu" }, { queue_name: "assent-webhooks-dead", jurisdiction: "eu" }];
      const refused = await preflight(configured, "eu");
      expect(refused.output, refused.output).toMatch(/Not deploying; fix these first[^\n]*\n\s+- D1 database assent-shard-1 \(binding DB_SHARD_1\) is not in the eu jurisdiction/);
      expect(refused.code).toBe(1);
    }, 300_000);
  });
});
