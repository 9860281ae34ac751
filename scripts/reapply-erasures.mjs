#!/usr/bin/env node
// npm run reapply-erasures -- --project <id> [--url http://localhost:8787] [--admin-token <token>]
// After a D1 restore (Time Travel brings erased rows back): erases again every identity the erasure ledger names.
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    project: { type: "string", multiple: true },
    url: { type: "string", default: process.env.ASSENT_URL ?? "http://localhost:8787" },
    "admin-token": { type: "string", default: process.env.ADMIN_TOKEN },
  },
});
if (!values.project?.length || !values["admin-token"]) {
  console.error("usage: npm run reapply-erasures -- --project <id> [--project <id> …] [--url <base>] --admin-token <token> (or ADMIN_TOKEN)");
  process.exit(2);
}
const base = values.url.replace(/\/+$/, "");
let failed = false;
for (const project of values.project) {
  const reply = await fetch(`${base}/admin/v1/projects/${encodeURIComponent(project)}/erasures/reapply`, {
    method: "POST",
    headers: { authorization: `Bearer ${values["admin-token"]}` },
  });
  const body = await reply.json().catch(() => null);
  if (!reply.ok) {
    console.error(`${project}: ${reply.status} ${body?.detail ?? ""}`);
    failed = true;
    continue;
  }
  console.log(`${project}: ${body.ledgerEntries} ledger entries, ${body.reapplied.length} identities erased again${body.reapplied.length ? `: ${body.reapplied.join(", ")}` : ""}`);
}
process.exit(failed ? 1 : 0);
