import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

// The portal's own bundle, built into dist/public/portal/ and served by Workers Static Assets.
// The shell is `app.html` (not index.html) so that every /portal route reaches the Worker, which serves it
// with security headers (worker/portal/routes.ts). `preview.html` is the consent widget's preview frame.

const headersFile = fileURLToPath(new URL("../dist/public/_headers", import.meta.url));
const csp = (frameAncestors: string) =>
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  `frame-src 'self'; frame-ancestors ${frameAncestors}; base-uri 'none'; form-action 'self'; object-src 'none'`;

/**
 * The static pages are served without the Worker (`/portal/app`, `/portal/preview`), so their headers live in
 * dist/public/_headers: the app may not be framed at all, the preview only by the portal itself.
 */
function headersBlock(): string {
  const page = (paths: string[], frameAncestors: string, frameOptions: string) =>
    paths.map((path) => `${path}\n  Content-Security-Policy: ${csp(frameAncestors)}\n  X-Frame-Options: ${frameOptions}\n`).join("");
  return (
    "# assent-portal:begin (written by portal/vite.config.ts)\n" +
    "/portal/*\n  X-Content-Type-Options: nosniff\n  Referrer-Policy: no-referrer\n" +
    page(["/portal/app", "/portal/app.html"], "'none'", "DENY") +
    page(["/portal/preview", "/portal/preview.html"], "'self'", "SAMEORIGIN") +
    "# assent-portal:end\n"
  );
}

function writeHeaders(): Plugin {
  return {
    name: "assent-portal-headers",
    closeBundle() {
      const current = existsSync(headersFile) ? readFileSync(headersFile, "utf8") : "";
      const others = current.replace(/# assent-portal:begin[\s\S]*?# assent-portal:end\n/, "");
      writeFileSync(headersFile, others + headersBlock());
    },
  };
}

export default defineConfig({
  root: "portal",
  base: "/portal/",
  publicDir: false,
  plugins: [writeHeaders()],
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
