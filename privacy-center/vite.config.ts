// Builds <assent-privacy-center> into dist/public/privacy-center/assent-privacy-center.js: its own bundle, so the
// consent widget's eager bundle carries none of it. The hosted page (worker/privacy-center/page.ts) loads it, and
// operators may embed it next to the widget (docs/privacy-center.md#the-page).
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  logLevel: "warn",
  resolve: { conditions: ["module", "browser", "production"] },
  build: {
    outDir: fileURLToPath(new URL("../dist/public/privacy-center", import.meta.url)),
    emptyOutDir: true,
    target: "es2022",
    minify: true,
    reportCompressedSize: false,
    lib: { entry: "src/index.ts", formats: ["es"], fileName: () => "assent-privacy-center.js" },
    rolldownOptions: { preserveEntrySignatures: false, output: { codeSplitting: false } },
  },
});
