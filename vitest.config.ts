import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { exportJWK, generateKeyPair } from "jose";
import { defineConfig } from "vitest/config";

// Vitest 5's reporter calls Map.groupBy, which Node 20 lacks (Node 21+); the machines run Node 20.
if (!("groupBy" in Map)) {
  Object.defineProperty(Map, "groupBy", {
    value<K, V>(items: Iterable<V>, key: (item: V, index: number) => K) {
      const groups = new Map<K, V[]>();
      let index = 0;
      for (const item of items) {
        const k = key(item, index++);
        groups.set(k, [...(groups.get(k) ?? []), item]);
      }
      return groups;
    },
  });
}

async function testSigningKeys() {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  return JSON.stringify([{ ...(await exportJWK(privateKey)), kid: "test-1" }]);
}

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./drizzle");
  return {
    test: {
      projects: [
        {
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  ADMIN_TOKEN: "test-admin-token",
                  SIGNING_KEYS: await testSigningKeys(),
                  WEBHOOK_SECRETS_KEY: "test-webhook-secrets-key",
                  // Immediate retries and a short timeout keep the webhook tests quick; the schedule is unit-tested.
                  WEBHOOK_MAX_ATTEMPTS: "3",
                  WEBHOOK_RETRY_BASE_SECONDS: "0",
                  WEBHOOK_TIMEOUT_MS: "1000",
                },
                // Outbound fetches (webhook deliveries) reach a stand-in for customers' servers, not the internet.
                outboundService: "webhook-receiver",
                workers: [
                  { name: "webhook-receiver", modules: true, scriptPath: "./test/api/webhooks-receiver.js", compatibilityDate: "2026-05-01" },
                ],
              },
            }),
          ],
          test: {
            name: "api",
            include: ["test/api/**/*.test.ts", "test/security/**/*.test.ts"],
            setupFiles: ["./test/api/setup.ts"],
          },
        },
        {
          test: {
            name: "e2e",
            include: ["test/e2e/**/*.test.ts"],
            environment: "node",
            globalSetup: ["./test/e2e/global-setup.ts"],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            fileParallelism: false,
          },
        },
      ],
    },
  };
});
