import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { exportJWK, generateKeyPair } from "jose";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from "wrangler";

/**
 * The longest files of a CI run, longest first (the clean-clone run of docs/testing.md#where-the-time-goes), started
 * before all others. A fresh clone has no Vitest cache of last run's durations, so Vitest orders by file size, and
 * these short files that run whole rehearsals, crawls and audits started last and ran on alone after everything else.
 */
const longestFirst = [
  "test/e2e/scanner.test.ts",
  "test/e2e/restore-rehearsal.test.ts",
  "test/security/authorization-matrix.test.ts",
  "test/e2e/npm-start.test.ts",
  "test/e2e/widget-languages.test.ts",
  "test/e2e/analytics.test.ts",
  "test/e2e/widget-behaviour.test.ts",
  "test/e2e/widget-rules.test.ts",
  "test/api/fuzz.test.ts",
  "test/e2e/blocking-audit.test.ts",
  "test/api/atomicity.test.ts",
  "test/packages/fresh-apps.test.ts",
];

/**
 * Vitest's order within each project (failed, then longest last time, then largest), but `longestFirst` before the
 * rest and the projects' files taken in turn rather than one project after another. A project's files queue behind
 * the previous project's otherwise, so the browser files, mostly waiting on Chromium and the service, would start only
 * once every workerd file had; taken in turn they fill the time the others spend waiting, and the other way round.
 */
class InterleavedSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = longestFirst.findIndex((path) => file.moduleId.endsWith(`/${path}`));
      return index === -1 ? longestFirst.length : index;
    };
    const queues = new Map<string, TestSpecification[]>();
    for (const file of (await super.sort(files)).sort((a, b) => rank(a) - rank(b))) {
      const queue = queues.get(file.project.name) ?? [];
      queue.push(file);
      queues.set(file.project.name, queue);
    }
    const order: TestSpecification[] = [];
    while (order.length < files.length) {
      for (const queue of queues.values()) {
        const next = queue.shift();
        if (next) order.push(next);
      }
    }
    return order;
  }
}

async function testSigningKeys() {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  return JSON.stringify([{ ...(await exportJWK(privateKey)), kid: "test-1" }]);
}

/**
 * The queue consumers wrangler.toml declares, with one difference: a batch is handed over as soon as it holds a
 * message instead of after `max_batch_timeout` (a second), since the webhook tests wait for deliveries after most writes.
 */
function immediateQueueConsumers() {
  const config = unstable_readConfig({ config: "wrangler.toml" });
  const { queueConsumers } = unstable_getMiniflareWorkerOptions({ ...config, assets: undefined }).workerOptions;
  if (!queueConsumers || Array.isArray(queueConsumers)) throw new Error("wrangler.toml declares no queue consumer settings");
  return Object.fromEntries(Object.entries(queueConsumers).map(([queue, consumer]) => [queue, Object.assign({}, consumer, { maxBatchTimeout: 0 })]));
}

/** The project test/api/databases.test.ts places in the second database, and that database's binding. */
/** The TCF lists' publishers in the api tests: IAB's and Google's files from the vendored snapshot (test/fixtures/tcf), every language's translation the French one. */
function tcfListsStandIn() {
  const files = ["vendor-list.json", "purposes-fr.json", "additional-consent-providers.csv"].map((name) => [name, readFileSync(`test/fixtures/tcf/${name}`, "utf8")]);
  const script = `const files = ${JSON.stringify(Object.fromEntries(files))};
export default { fetch(request) { const name = new URL(request.url).pathname.split("/").pop().replace(/^purposes-.*/, "purposes-fr.json"); return name in files ? new Response(files[name]) : new Response("not published", { status: 404 }); } };`;
  return { name: "tcf-lists", modules: true, script, compatibilityDate: "2026-05-01" };
}

const shardedProjectId = "prj_sharded_test";
const shardBinding = "DB_SHARD_1";

const limiters = [
  ["VISITOR_TOKENS_IP_LIMITER", "RATE_LIMIT_VISITOR_TOKENS_PER_IP", "1201"],
  ["VISITOR_TOKENS_PROJECT_LIMITER", "RATE_LIMIT_VISITOR_TOKENS_PER_PROJECT", "1202"],
  ["TOKEN_ENDPOINT_LIMITER", "RATE_LIMIT_TOKEN_ENDPOINT", "1203"],
  ["PORTAL_SIGN_IN_LIMITER", "RATE_LIMIT_PORTAL_SIGN_IN", "1204"],
  ["ADMIN_FAILURES_LIMITER", "RATE_LIMIT_ADMIN_FAILURES", "1205"],
  ["ANALYTICS_EVENTS_LIMITER", "RATE_LIMIT_ANALYTICS_EVENTS", "1211"],
] as const;

/** Limiters every suite runs at their production values, as wrangler.toml declares them (the privacy center's). */
const productionLimiters = [
  "PRIVACY_CENTER_IP_LIMITER",
  "PRIVACY_CENTER_ALIAS_CLIENT_LIMITER",
  "PRIVACY_CENTER_VERIFICATIONS_ALIAS_CLIENT_LIMITER",
  "PRIVACY_CENTER_ALIAS_LIMITER",
  "PRIVACY_CENTER_VERIFICATIONS_ALIAS_LIMITER",
];

function declaredLimiters() {
  const config = unstable_readConfig({ config: "wrangler.toml" });
  return Object.fromEntries(
    config.ratelimits
      .filter((limiter: { name: string }) => productionLimiters.includes(limiter.name))
      .map((limiter: { name: string; namespace_id: string; simple: { limit: number; period: 10 | 60 } }) => [limiter.name, { namespace_id: limiter.namespace_id, simple: limiter.simple }]),
  );
}

/**
 * Rate-limit bindings (the real Miniflare emulation) and the vars stating them, all at one limit per minute but for
 * the production ones, which keep wrangler.toml's values (and vars).
 */
const rateLimits = (limit: number) => ({
  ratelimits: {
    ...Object.fromEntries(limiters.map(([binding, , namespace_id]) => [binding, { namespace_id, simple: { limit, period: 60 as const } }])),
    ...declaredLimiters(),
  },
  // The visitors one scan pass may make (worker/scans/pass.ts) at the same scale.
  vars: { ...Object.fromEntries(limiters.map(([, name]) => [name, String(limit)])), SCAN_PASS_VISITORS: String(limit) },
});

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./drizzle");
  const signingKeys = await testSigningKeys();
  const queueConsumers = immediateQueueConsumers();
  /**
   * The API suite's workerd: real D1, KV, queues and rate limiters; `limit` sets every abuse limit per minute.
   * `isolate: false` keeps one workerd per Vitest worker for all the project's files instead of starting one per file
   * (with the Worker's modules loaded again each time); test/api/setup.ts empties D1 and KV before each file.
   */
  const workerd = (name: string, include: string[], limit: number, { isolate }: { isolate: boolean }) => {
    const limits = rateLimits(limit);
    return {
      plugins: [
        cloudflareTest({
          wrangler: { configPath: "./wrangler.toml" },
          miniflare: {
            ratelimits: limits.ratelimits,
            queueConsumers,
            // A second database holding one project (README "Scaling"); both get every migration (test/api/setup.ts).
            d1Databases: { DB: "00000000-0000-0000-0000-000000000000", [shardBinding]: "assent-shard-1" },
            // Miniflare's send_email binding under another name, so mail stays captured unless a test passes it as
            // SEND_EMAIL (test/api/privacy-center-delivery.test.ts); one allowed sender lets a test see it refuse.
            email: { send_email: [{ name: "TEST_SEND_EMAIL", allowed_sender_addresses: ["privacy@assent.example"] }] },
            bindings: {
              ...limits.vars,
              PROJECT_DATABASES: JSON.stringify({ [shardedProjectId]: shardBinding }),
              TEST_MIGRATIONS: migrations,
              // `npm run fuzz` explores more inputs per operation than the suite's bounded run (test/api/fuzz.test.ts).
              ...(process.env.FUZZ_RUNS ? { FUZZ_RUNS: process.env.FUZZ_RUNS } : {}),
              // A signal no browser sends, defined as data only (test/api/signals.test.ts).
              TEST_SIGNALS: readFileSync("test/test-signals.json", "utf8"),
              ISSUER: "http://assent.test",
              ADMIN_TOKEN: "test-admin-token",
              SIGNING_KEYS: signingKeys,
              WEBHOOK_SECRETS_KEY: "test-webhook-secrets-key",
              // Immediate retries and a short timeout keep the webhook tests quick; the schedule is unit-tested.
              WEBHOOK_MAX_ATTEMPTS: "3",
              WEBHOOK_RETRY_BASE_SECONDS: "0",
              WEBHOOK_TIMEOUT_MS: "1000",
              // Turnstile's documented test keys (always pass); siteverify is answered by the stand-in below.
              TURNSTILE_SITE_KEY: "1x00000000000000000000AA",
              TURNSTILE_SECRET_KEY: "1x0000000000000000000000000000000AA",
              // The local OpenID Connect provider (test/sso/provider.ts) is served on loopback over http.
              ALLOW_LOOPBACK_SSO: "true",
              // The cron's TCF lists come from a stand-in serving the vendored snapshot (test/fixtures/tcf), never IAB's.
              TCF_GVL_BASE_URL: "http://tcf-lists.test/v3/",
              TCF_ATP_URL: "http://tcf-lists.test/additional-consent-providers.csv",
            },
            // Outbound fetches (webhook deliveries) reach a stand-in for customers' servers, not the internet.
            outboundService: "webhook-receiver",
            workers: [
              {
                name: "webhook-receiver",
                modules: true,
                scriptPath: "./test/api/webhooks-receiver.js",
                compatibilityDate: "2026-05-01",
                serviceBindings: { PROVIDERS: "sms-providers", TCF_LISTS: "tcf-lists" },
              },
              // Fakes of the SMS providers' HTTP contracts; the receiver forwards their hosts here.
              { name: "sms-providers", modules: true, scriptPath: "./test/api/sms-provider-fakes.js", compatibilityDate: "2026-05-01" },
              tcfListsStandIn(),
            ],
          },
        }),
      ],
      // Files run side by side on shared machines: a test's time limit is no assertion, so it is generous.
      // globalSetup: the local OpenID Connect provider the single sign-on tests sign in at (test/sso/provider.ts).
      test: { name, include, isolate, setupFiles: ["./test/api/setup.ts"], globalSetup: ["./test/sso/global-setup.ts"], testTimeout: 30_000 },
    };
  };
  /**
   * The plain-Node projects' limits. Vitest's defaults (5 s a test, 10 s a hook) failed the GPP properties (200 runs
   * against IAB's library) at a load average of 45 on two cores, where they took up to 11.4 s (1.5 to 4 s at load 2):
   * five times the slowest measured, as the workerd (30 s) and browser (60 s) projects have.
   */
  const nodeLimits = { environment: "node", testTimeout: 60_000, hookTimeout: 60_000 } as const;
  return {
    test: {
      // A file per core rather than Vitest's one per core less one, which is a single file at a time on two cores: every
      // file waits much of its time on its own workerd, Chromium or the service, and the other file's work fills that.
      // More than that measured slower on a busy two-core machine and pushed concurrency tests past their windows.
      maxWorkers: availableParallelism(),
      sequence: { sequencer: InterleavedSequencer },
      projects: [
        // Load, fuzz and concurrency tests mint thousands of tokens from one address: limits far above their traffic,
        // so no file's traffic counts against the next file's on the shared workerd.
        workerd("api", ["test/api/**/*.test.ts"], 1_000_000, { isolate: false }),
        // The security suite proves the limits bite, at the production defaults' scale: a workerd per file, since the
        // rate limiters count in the workerd's memory, which nothing between files could empty.
        workerd("security", ["test/security/**/*.test.ts"], 10, { isolate: true }),
        // Translation checks: plain Node, no workerd or browser.
        { test: { name: "i18n", include: ["test/i18n/**/*.test.ts"], ...nodeLimits } },
        // The widget's GPP strings against IAB's library: plain Node.
        { test: { name: "gpp", include: ["test/gpp/**/*.test.ts"], ...nodeLimits } },
        // The scanner's matching and robots.txt rules: plain Node, no browser.
        { test: { name: "scanner", include: ["test/scanner/**/*.test.ts"], ...nodeLimits } },
        // The Google Tag Manager template's sandboxed code against a stand-in of Tag Manager's sandbox: plain Node.
        { test: { name: "integrations", include: ["test/integrations/**/*.test.ts"], ...nodeLimits } },
        // The README's shape and every link in the documentation and the code's references to it: plain Node.
        { test: { name: "docs", include: ["test/docs/**/*.test.ts"], ...nodeLimits } },
        // The framework packages build, export what they built, their tarballs hold what they should, the Svelte
        // component compiles, and the tarballs install and build in fresh Vite apps: plain Node, built once, in the
        // background of the other global setups (test/packages/global-setup.ts).
        {
          // @assent/element from its source, as the packages' tsconfig.json files resolve it.
          resolve: { alias: { "@assent/element": fileURLToPath(new URL("packages/element/src/index.ts", import.meta.url)) } },
          test: {
            name: "packages",
            include: ["test/packages/**/*.test.ts"],
            ...nodeLimits,
            globalSetup: ["./test/packages/global-setup.ts"],
            setupFiles: ["./test/packages/built.ts"],
          },
        },
        {
          test: {
            name: "e2e",
            include: ["test/e2e/**/*.test.ts"],
            environment: "node",
            globalSetup: ["./test/e2e/global-setup.ts"],
            setupFiles: ["./test/e2e/service-ready.ts"],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            // expect.poll waits on the page and the service catching up (a save's round trip, a released tag's
            // request): Vitest's one second is less than a busy two-core machine takes. A condition that never
            // holds still fails, after 15 s, as the portal tests' poll does.
            expect: { poll: { timeout: 15_000 } },
          },
        },
      ],
    },
  };
});
