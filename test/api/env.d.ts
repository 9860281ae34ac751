import type { D1Migration } from "@cloudflare/vitest-plugin";
import type { Env as WorkerEnv } from "../../worker/env";

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[];
      /** The second database (vitest.config.ts). */
      DB_SHARD_1: D1Database;
      /** Miniflare's send_email binding, allowed one sender (vitest.config.ts); tests pass it as SEND_EMAIL. */
      TEST_SEND_EMAIL: SendEmail;
      /** Fuzz runs per operation (`npm run fuzz` sets more; test/api/fuzz.test.ts). */
      FUZZ_RUNS?: string;
    }
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The local OpenID Connect provider's issuer (test/sso/global-setup.ts). */
    ssoIssuer: string;
  }
}
