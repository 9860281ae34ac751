// Builds the consent widget into dist/public/widget:
//   vite build -c widget/vite.config.ts                  -> assent.js (ES module, modern browsers): the eager part
//     (first layer, consent API, gating, Consent Mode), plus chunks loaded on demand (the preferences layer, one
//     per UI language), named by content hash
//   vite build -c widget/vite.config.ts --mode classic   -> assent.classic.js (classic script, old webviews): all of
//     it in one file, since a classic script cannot import chunks
// Each build also writes a content-hashed copy of its entry, records it in manifest.json (with SRI hashes), keeps the
// widget's block of dist/public/_headers current, and fails when over the size budgets.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

/** min+gzip budgets, Lit included: what every page loads, and everything a visitor can load (all chunks of a build). */
export const eagerBudgetBytes = 10 * 1024;
export const totalBudgetBytes = 20 * 1024;

const outDir = fileURLToPath(new URL("../dist/public/widget", import.meta.url));
const headersFile = fileURLToPath(new URL("../dist/public/_headers", import.meta.url));

/** Per entry: its hashed copy, and the chunks it loads on demand (already named by content hash). */
type Manifest = Record<string, { file: string; integrity: string; gzipBytes: number; totalGzipBytes: number; chunks: string[] }>;

function headersBlock(manifest: Manifest): string {
  const rule = (path: string, cache: string) => `/widget/${path}\n  Cache-Control: ${cache}\n`;
  return (
    "# assent-widget:begin (written by widget/vite.config.ts)\n" +
    // Module scripts from another origin are fetched with CORS; the widget is public code.
    "/widget/*\n  Access-Control-Allow-Origin: *\n  Cross-Origin-Resource-Policy: cross-origin\n  X-Content-Type-Options: nosniff\n" +
    Object.entries(manifest)
      .map(
        ([stable, { file, chunks }]) =>
          rule(stable, "public, max-age=300, stale-while-revalidate=86400") +
          [file, ...chunks].map((name) => rule(name, "public, max-age=31536000, immutable")).join(""),
      )
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

/** Minifies the stylesheets in styles.ts and preferences-styles.ts (one template literal each, no expressions). */
function minifyStyles(): Plugin {
  return {
    name: "assent-minify-styles",
    transform(code, id) {
      if (!/\/widget\/src\/(preferences-)?styles\.ts$/.test(id)) return null;
      return code.replace(/= `([^`]*)`/, (_all, sheet: string) => {
        const minified = sheet
          .replace(/\/\*[\s\S]*?\*\//g, "")
          .replace(/\s+/g, " ")
          .replace(/\s*([{};,>])\s*/g, "$1")
          .replace(/:\s+/g, ":")
          .replace(/;}/g, "}");
        return `= \`${minified.trim()}\``;
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
      const gzipOf = (fileName: string) => gzipSync(readFileSync(`${outDir}/${fileName}`), { level: 9 }).byteLength;
      const chunks = Object.values(bundle).filter((chunk) => chunk.type === "chunk");
      const total = chunks.reduce((sum, chunk) => sum + gzipOf(chunk.fileName), 0);
      if (total > totalBudgetBytes) {
        throw new Error(`The ${chunks.length} files of this build are ${total} bytes min+gzip, over the total budget of ${totalBudgetBytes}.`);
      }
      for (const chunk of chunks) {
        if (!chunk.isEntry) continue;
        const code = readFileSync(`${outDir}/${chunk.fileName}`);
        const gzipBytes = gzipOf(chunk.fileName);
        // The classic build carries everything in its one file, so only the total budget applies to it.
        if (chunks.length > 1 && gzipBytes > eagerBudgetBytes) {
          throw new Error(`${chunk.fileName} is ${gzipBytes} bytes min+gzip, over the eager budget of ${eagerBudgetBytes}.`);
        }
        const hash = createHash("sha256").update(code).digest("hex").slice(0, 10);
        const file = chunk.fileName.replace(/\.js$/, `.${hash}.js`);
        writeFileSync(`${outDir}/${file}`, code);
        manifest[chunk.fileName] = {
          file,
          integrity: `sha384-${createHash("sha384").update(code).digest("base64")}`,
          gzipBytes,
          totalGzipBytes: total,
          chunks: chunks.filter((other) => !other.isEntry).map((other) => other.fileName),
        };
        this.info(`${chunk.fileName} -> ${file}: ${gzipBytes} bytes min+gzip; all ${chunks.length} files ${total} (budgets ${eagerBudgetBytes}, ${totalBudgetBytes})`);
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
      // The classic build inlines the lazy chunks; the ES build merges what they share with the entry into it.
      rolldownOptions: {
        // The entry is a script that defines the element; nothing imports its exports.
        preserveEntrySignatures: false,
        output: {
          minify: true,
          chunkFileNames: "[name].[hash].js",
          ...(classic ? { codeSplitting: false } : {}),
        },
      },
    },
  };
});
