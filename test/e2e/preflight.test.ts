// The checks `npm start` and `npm run deploy` make before doing anything.
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { databaseMapProblems, deployProblems, portProblem, requiredSecrets } from "../../scripts/preflight.mjs";

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
