// Starts the local OpenID Connect provider (test/sso/provider.ts) for the workerd files and tells them its issuer
// (`inject("ssoIssuer")`). The Worker and the tests reach it through the outbound stand-in (test/api/webhooks-receiver.js).
import type { TestProject } from "vitest/node";
import { startSsoProvider } from "./provider";

export default async function setup(project: TestProject) {
  // ProvidedContext declares it in test/api/env.d.ts.
  const running = await startSsoProvider();
  (project.provide as (key: string, value: string) => void)("ssoIssuer", running.issuer);
  return running.close;
}
