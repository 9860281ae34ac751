#!/usr/bin/env node
// npm run verify-log -- --project <id> [--url http://localhost:8787] [--token <bearer> | --client-id <id> --client-secret <secret>]
// Re-derives a project's log from a local or remote deployment and names the first entry that does not match.
import { parseArgs } from "node:util";
import { auditLog } from "./log-verifier.mjs";

const { values } = parseArgs({
  options: {
    project: { type: "string" },
    url: { type: "string", default: process.env.ASSENT_URL ?? "http://localhost:8787" },
    token: { type: "string", default: process.env.ASSENT_TOKEN },
    "client-id": { type: "string" },
    "client-secret": { type: "string" },
  },
});
if (!values.project) {
  console.error("usage: npm run verify-log -- --project <id> [--url <base>] [--token <bearer> | --client-id <id> --client-secret <secret>]");
  process.exit(2);
}
const base = values.url.replace(/\/+$/, "");
let token = values.token;
if (!token && values["client-id"]) {
  const reply = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: values["client-id"], client_secret: values["client-secret"] ?? "" }),
  });
  if (!reply.ok) throw new Error(`token request failed: ${reply.status} ${await reply.text()}`);
  token = (await reply.json()).access_token;
}
const get = async (path) => {
  const reply = await fetch(base + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!reply.ok) throw new Error(`GET ${path}: ${reply.status} ${await reply.text()}`);
  return reply.json();
};
const report = await auditLog({ get, projectId: values.project });
for (const problem of report.problems) {
  console.log(`${problem.index !== undefined ? `entry ${problem.index}` : `head ${problem.head}`}: ${problem.message}`);
}
if (report.ok) {
  console.log(`ok: ${report.entries} entries, ${report.heads} signed heads (${report.sealed} entries sealed), all re-derived`);
} else {
  const first = report.firstMismatch;
  console.log(`MISMATCH: first at ${first.index !== undefined ? `entry ${first.index}` : `head ${first.head}`}: ${first.message}`);
  process.exit(1);
}
