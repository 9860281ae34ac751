// Builds the consent widget into dist/public/widget as one self-contained file per format:
//   vite build -c widget/vite.config.ts                  -> assent.js (ES module, modern browsers)
//   vite build -c widget/vite.config.ts --mode classic   -> assent.classic.js (classic script, old webviews)
// Each build also writes a content-hashed copy, records both in manifest.json (with SRI hashes), keeps the
// widget's block of dist/public/_headers current, and fails when the file is over the size budget.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

/** min+gzip budget for the whole widget, Lit included. */
export const budgetBytes = 12 * 1024;

const outDir = fileURLToPath(new URL("../dist/public/widget", import.meta.url));
const headersFile = fileURLToPath(new URL("../dist/public/_headers", import.meta.url));

type Manifest = Record<string, { file: string; integrity: string; gzipBytes: number }>;

function headersBlock(manifest: Manifest): string {
  const rule = (path: string, cache: string) => `/widget/${path}\n  Cache-Control: ${cache}\n`;
  return (
    "# assent-widget:begin (written by widget/vite.config.ts)\n" +
    // Module scripts from another origin are fetched with CORS; the widget is public code.
    "/widget/*\n  Access-Control-Allow-Origin: *\n  Cross-Origin-Resource-Policy: cross-origin\n  X-Content-Type-Options: nosniff\n" +
    Object.entries(manifest)
      .map(([stable, { file }]) => rule(stable, "public, max-age=300, stale-while-revalidate=86400") + rule(file, "public, max-age=31536000, immutable"))
      .join("") +
    rule("manifest.json", "public, max-age=300") +
    "# assent-widget:end\n"
  );
}

/**
 * Lit ships minified but our templates keep their indentation. In the minified chunk a raw line break can
 * only sit inside a template literal (html`` or css``), where a run of whitespace means one space, and a
 * space between two tags is not needed by any of our templates.
 */
function collapseTemplates(): Plugin {
  return {
    name: "assent-collapse-templates",
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === "chunk") chunk.code = chunk.code.replace(/\n\s*/g, " ").replace(/> </g, "><");
      }
    },
  };
}

/** Minifies the stylesheet in styles.ts (one css`` literal, no expressions): Lit leaves CSS text as written. */
function minifyStyles(): Plugin {
  return {
    name: "assent-minify-styles",
    transform(code, id) {
      if (!id.endsWith("/widget/src/styles.ts")) return null;
      return code.replace(/css`([^`]*)`/, (_all, sheet: string) => {
        const minified = sheet
          .replace(/\/\*[\s\S]*?\*\//g, "")
          .replace(/\s+/g, " ")
          .replace(/\s*([{};,>])\s*/g, "$1")
          .replace(/:\s+/g, ":")
          .replace(/;}/g, "}");
        return `css\`${minified.trim()}\``;
      });
    },
  };
}

function publish(): Plugin {
  return {
    name: "assent-publish",
    writeBundle(_options, bundle) {
      const manifestPath = `${outDir}/manifest.json`;
      const manifest: Manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, "utf8")) : {};
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk") continue;
        const code = readFileSync(`${outDir}/${chunk.fileName}`);
        const gzipBytes = gzipSync(code, { level: 9 }).byteLength;
        if (gzipBytes > budgetBytes) {
          throw new Error(`${chunk.fileName} is ${gzipBytes} bytes min+gzip, over the widget budget of ${budgetBytes}.`);
        }
        const hash = createHash("sha256").update(code).digest("hex").slice(0, 10);
        const file = chunk.fileName.replace(/\.js$/, `.${hash}.js`);
        writeFileSync(`${outDir}/${file}`, code);
        manifest[chunk.fileName] = {
          file,
          integrity: `sha384-${createHash("sha384").update(code).digest("base64")}`,
          gzipBytes,
        };
        this.info(`${chunk.fileName} -> ${file}: ${gzipBytes} bytes min+gzip (budget ${budgetBytes})`);
      }
      writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + "\n");
      const current = existsSync(headersFile) ? readFileSync(headersFile, "utf8") : "";
      const others = current.replace(/# assent-widget:begin[\s\S]*?# assent-widget:end\n/, "");
      writeFileSync(headersFile, others + headersBlock(manifest));
    },
  };
}

export default defineConfig(({ mode }) => {
  const classic = mode === "classic";
  return {
    root: fileURLToPath(new URL(".", import.meta.url)),
    logLevel: "warn",
    plugins: [minifyStyles(), collapseTemplates(), publish()],
    // Lit's production build whatever NODE_ENV says (vitest runs the build with NODE_ENV=test).
    resolve: { conditions: ["module", "browser", "production"] },
    // A classic script finds its URL in document.currentScript; import.meta does not exist there.
    define: classic ? { "import.meta.url": "undefined" } : {},
    build: {
      outDir,
      // The ES build runs first and starts from an empty folder; the classic build adds to it.
      emptyOutDir: !classic,
      // Both builds need <dialog>.showModal() (Safari 15.4) anyway; the classic one is for webviews that cannot
      // load modules (pages from file:// or loadHTMLString), not for older JavaScript engines.
      target: "es2022",
      minify: true,
      reportCompressedSize: false,
      lib: {
        entry: "src/index.ts",
        formats: [classic ? "iife" : "es"],
        name: "Assent",
        fileName: () => (classic ? "assent.classic.js" : "assent.js"),
      },
      rolldownOptions: { output: { minify: true } },
    },
  };
});
