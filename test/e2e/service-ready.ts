// Every e2e file starts once the global setup's service is up and the demo seeded (test/e2e/global-setup.ts), and
// fails with the reason when it did not start. `demoProjectId()` is the seeded demo's project, `browserEndpoint()` the
// run's Chromium (test/e2e/browser.ts).
import { existsSync, readFileSync } from "node:fs";
import { inject } from "vitest";

type Started = { demoProjectId: string; browserEndpoint: string };

const status = inject("e2eService");
// The migrations, `wrangler dev` and the seed: minutes on a busy two-core machine. The global setup reports an end
// either way (startService gives up on a runtime that does not answer), so this wait ends.
while (!existsSync(status)) await new Promise((resolve) => setTimeout(resolve, 250));
const outcome = JSON.parse(readFileSync(status, "utf8")) as Started | { error: string };
if ("error" in outcome) throw new Error(`the e2e service did not start:\n${outcome.error}`);

export const demoProjectId = () => (outcome as Started).demoProjectId;
export const browserEndpoint = () => (outcome as Started).browserEndpoint;
