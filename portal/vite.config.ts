import { defineConfig } from "vite";

// The portal's own bundle, built into dist/public/portal/ and served by Workers Static Assets.
// The shell is `app.html` (not index.html) so that every /portal route reaches the Worker, which serves it
// with security headers (worker/portal/routes.ts). `preview.html` is the consent widget's preview frame.
export default defineConfig({
  root: "portal",
  base: "/portal/",
  publicDir: false,
  // Lit's production build whatever NODE_ENV says (the e2e setup runs this build with NODE_ENV=test).
  resolve: { conditions: ["module", "browser", "production"] },
  build: {
    outDir: "../dist/public/portal",
    emptyOutDir: true,
    target: "es2022",
    modulePreload: { polyfill: false },
    rolldownOptions: { input: ["portal/app.html", "portal/preview.html"] },
  },
});
