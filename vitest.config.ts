import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { exportJWK, generateKeyPair } from "jose";
import { defineConfig } from "vitest/config";

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
                },
              },
            }),
          ],
          test: {
            name: "api",
            include: ["test/api/**/*.test.ts"],
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
