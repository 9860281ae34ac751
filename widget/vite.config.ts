// Builds the consent widget into dist/public/widget:
//   vite build -c widget/vite.config.ts                  -> assent.js (ES module, modern browsers): the eager part
//     (first layer, consent API, gating, Consent Mode), plus chunks loaded on demand (the preferences layer, one
//     per UI language), named by content hash
//   vite build -c widget/vite.config.ts --mode classic   -> assent.classic.js (classic script, old webviews and Google
//     Tag Manager's injectScript): all of it in one file, since a classic script cannot import chunks
//   vite build -c widget/vite.config.ts --mode blocking  -> blocking.js (classic script, IIFE `AssentBlocking`): the
//     page-side blocker the Worker serves per project with the list inlined (worker/blocking/script.ts), and its
//     placeholder words, blocking-i18n/<version>/<tag>.json
// The module build also writes the TCF dialog's words, tcf-i18n/<version>/<tag>.json, which only its TCF chunk fetches.
// The widget's two builds fetch the visitor's language from i18n/<version>/<tag>.json (one file per language, written by the
// build from shared/i18n/languages/<tag>.ts; <version> hashes them all), so neither carries any language's words.
// Each build also writes a content-hashed copy of its entry, records it in manifest.json (with SRI hashes), keeps the
// widget's block of dist/public/_headers current, and fails when over the size budgets.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import { blockingStrings } from "../shared/i18n/blocking";
import { tcfStrings } from "../shared/i18n/tcf";
import { shippedStrings } from "../shared/i18n/shipped";
import { english } from "../shared/i18n/strings";
import { browserSignals, signalHeaders } from "../shared/signals/signals";
import { vendors } from "../shared/vendors/catalogue";

/**
 * min+gzip budgets, Lit included: what every page loads (the entry); one language's words; and everything one
 * visitor can load: the entry, the preferences layer and the largest language. (Visitors load one language each,
 * so the languages are not summed: adding one costs no visitor anything.)
 */
/**
 * 10 KiB, plus 64 bytes for recording which purposes ran under an exemption, 79 for the one line that loads the
 * optional parts the bootstrap names (GPP where it applies, TCF on TCF projects: 19 for its chunk's hashed name;
 * shared/browser/features.ts), 16 for the words a visitor's law prescribes on the first layer, 70 for loading the
 * click-to-load placeholders of frames gated by hand where a page has one held, 28 for the notes (GPC, offline,
 * failure) both layers render from one copy in the entry and for the element's one view, 15 for naming the
 * browser's storage keys in the one place the privacy center, the blocker and the TCF part read too (shared/browser;
 * 5 for the export the TCF chunk imports), 16 for
 * leaving Consent Mode's defaults to the blocker when it sent them first, and 87 for handing a visitor key just
 * minted to a tab whose localStorage has not caught up yet (shared/browser/session.ts; docs/widget.md), 17 for the
 * analytics chunk's name in the optional parts (counting, docs/analytics.md#what-the-widget-sends), 63 for drawing
 * a banner variant's button style from the first paint (the bootstrap's `buttons` as a data attribute on the first
 * layer's buttons and two CSS rules; docs/analytics.md#how-a-variant-is-served), and 28 for the hook through which an
 * optional part adds to both layers and styles them (the host's `section` and `root`, the banner's call: the TCF
 * layers, docs/tcf.md#loading).
 */
export const eagerBudgetBytes = 10 * 1024 + 64 + 79 + 16 + 70 + 28 + 15 + 16 + 87 + 17 + 63 + 28;
export const languageBudgetBytes = 2 * 1024;
/**
 * 20 KiB, plus what every visitor loads of the two additions above: 63 eager bytes of a variant's button style, and
 * 41 for the layers' hook for optional parts (28 in the entry, 13 in the preferences layer).
 */
export const totalBudgetBytes = 20 * 1024 + 63 + 41;
/**
 * The TCF part (tcf.<hash>.js: IAB's CmpApi and TC string encoder, the dialog's TCF layers; and vendors.<hash>.js, the
 * vendor list, fetched when it is opened), fetched only on TCF projects' pages under the opt-in regime, where the GPP
 * part never loads: counted apart from the total above, against a budget of its own (docs/tcf.md#loading). 14 KiB
 * before the layers (13,461 bytes); 17 KiB with them (16,333 bytes when they were added: 2.9 KiB for the layers);
 * 1,212 bytes more for the second layer's disclosures (17,834 bytes on their own, 18,180 with the first layer's wait and the project's TCF words: device storage, restrictions, Google's providers,
 * illustrations; the stacks' descriptions on the first layer),
 * most of them in the vendor list's chunk, which loads only when the list is opened.
 */
export const tcfBudgetBytes = 17 * 1024 + 1_212;
/**
 * The blocker (blocking.js, --mode blocking): a classic script of its own, loaded synchronously first in `<head>`
 * on sites that switch blocking on, so every byte delays their first paint. It carries the host matching, the
 * interception, the vendor catalogue's consent calls and the placeholders, but no language and not Lit. 5 KiB since
 * it holds HTML strings, document.write, hints and same-origin frames and sends Consent Mode's defaults first
 * (issue 36; docs/widget.md).
 */
export const blockingBudgetBytes = 5 * 1024;

const outDir = fileURLToPath(new URL("../dist/public/widget", import.meta.url));
const headersFile = fileURLToPath(new URL("../dist/public/_headers", import.meta.url));
const i18nFolder = fileURLToPath(new URL("../shared/i18n/", import.meta.url));
const gzipBytes = (data: string | Buffer) => gzipSync(data, { level: 9 }).byteLength;

/**
 * Every language's words as the JSON the widget fetches, by tag, checked against the list the widget and the
 * Worker negotiate with and against English's keys (the translation test says more; this keeps a build honest).
 */
function languageFiles(): Record<string, string> {
  const tags = readdirSync(`${i18nFolder}languages`)
    .filter((file) => file.endsWith(".ts"))
    .map((file) => file.slice(0, -3))
    .sort();
  const shipped: Record<string, object> = shippedStrings;
  const listed = Object.keys(shipped).sort();
  if (tags.join() !== listed.join()) {
    throw new Error(`shared/i18n/languages has modules for ${tags.join(" ")} but shared/i18n/shipped.ts lists ${listed.join(" ")}.`);
  }
  const keys = Object.keys(english).join();
  return Object.fromEntries(
    tags.map((tag) => {
      const strings = shipped[tag];
      if (Object.keys(strings).join() !== keys) throw new Error(`shared/i18n/languages/${tag}.ts does not have English's keys in English's order.`);
      return [tag, JSON.stringify(strings)];
    }),
  );
}

const languages = languageFiles();

/** The placeholders' words (shared/i18n/blocking.ts) as JSON by tag, for the languages the widget ships. */
function blockingLanguageFiles(): Record<string, string> {
  const strings: Record<string, object> = blockingStrings;
  const missing = Object.keys(languages).filter((tag) => !strings[tag]);
  if (missing.length > 0) throw new Error(`shared/i18n/blocking.ts has no words for ${missing.join(" ")}.`);
  return Object.fromEntries(Object.keys(languages).map((tag) => [tag, JSON.stringify(strings[tag])]));
}

const blockingFiles = blockingLanguageFiles();
const blockingVersion = createHash("sha256").update(JSON.stringify(blockingFiles)).digest("hex").slice(0, 10);
/**
 * Where the placeholders find their words: the blocker's, and the widget's for frames gated by hand
 * (src/gated-frames.ts), which fetch the same files (the blocker's build writes them).
 */
const blockingDefines = {
  __ASSENT_BLOCKING_I18N__: JSON.stringify(blockingVersion),
  __ASSENT_BLOCKING_TAGS__: JSON.stringify(Object.keys(blockingFiles)),
};
/**
 * The TCF dialog's words (shared/i18n/tcf.ts) as JSON by tag, tcf-i18n/<version>/<tag>.json: fetched by the TCF chunk
 * beside the project's vendor list, so no other visitor loads them.
 */
const tcfWordFiles = Object.fromEntries(
  Object.keys(languages).map((tag) => {
    if (!tcfStrings[tag]) throw new Error(`shared/i18n/tcf.ts has no words for ${tag}.`);
    return [tag, JSON.stringify(tcfStrings[tag])];
  }),
);
const tcfWordsVersion = createHash("sha256").update(JSON.stringify(tcfWordFiles)).digest("hex").slice(0, 10);
/** Names the folder of this build's language files: a change to any language is a new folder. */
const languagesVersion = createHash("sha256").update(JSON.stringify(languages)).digest("hex").slice(0, 10);

/** Per entry: its hashed copy, and the chunks it loads on demand (already named by content hash). */
type Manifest = Record<
  string,
  {
    file: string;
    integrity: string;
    gzipBytes: number;
    /** What one visitor can load at most: the entry, its chunks and the largest language. */
    totalGzipBytes: number;
    chunks: string[];
    languages: { folder: string; count: number; largest: { tag: string; gzipBytes: number } };
  }
>;

/** What the service honours (shared/signals/signals.ts): the headers every file of the widget is served with. */
function signalLines(): string {
  return Object.entries(signalHeaders(browserSignals))
    .map(([name, value]) => `  ${name}: ${value}\n`)
    .join("");
}

function headersBlock(manifest: Manifest): string {
  const rule = (path: string, cache: string) => `/widget/${path}\n  Cache-Control: ${cache}\n`;
  return (
    "# assent-widget:begin (written by widget/vite.config.ts)\n" +
    // Module scripts from another origin are fetched with CORS; the widget is public code.
    "/widget/*\n  Access-Control-Allow-Origin: *\n  Cross-Origin-Resource-Policy: cross-origin\n  X-Content-Type-Options: nosniff\n" +
    signalLines() +
    Object.entries(manifest)
      .map(
        ([stable, { file, chunks }]) =>
          rule(stable, "public, max-age=300, stale-while-revalidate=86400") +
          [file, ...chunks].map((name) => rule(name, "public, max-age=31536000, immutable")).join(""),
      )
      .join("") +
    rule("i18n/*", "public, max-age=31536000, immutable") +
    rule("blocking-i18n/*", "public, max-age=31536000, immutable") +
    rule("tcf-i18n/*", "public, max-age=31536000, immutable") +
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
          .replace(/([\s:(,-])0\.(\d)/g, "$1.$2")
          .replace(/;}/g, "}");
        return `= \`${minified.trim()}\``;
      });
    },
  };
}

/** Writes i18n/<version>/<tag>.json (and the TCF words, tcf-i18n/) for every language; fails when one is over its budget. */
function emitLanguages(): Plugin {
  return {
    name: "assent-languages",
    generateBundle() {
      for (const [tag, json] of Object.entries(languages)) {
        const bytes = gzipBytes(json);
        if (bytes > languageBudgetBytes) {
          throw new Error(`The ${tag} strings are ${bytes} bytes min+gzip, over the per-language budget of ${languageBudgetBytes}.`);
        }
        this.emitFile({ type: "asset", fileName: `i18n/${languagesVersion}/${tag}.json`, source: json });
      }
      for (const [tag, json] of Object.entries(tcfWordFiles)) this.emitFile({ type: "asset", fileName: `tcf-i18n/${tcfWordsVersion}/${tag}.json`, source: json });
    },
  };
}

/** The largest language, min+gzip: the one that counts towards what one visitor can load. */
const largestLanguage = Object.entries(languages)
  .map(([tag, json]) => ({ tag, gzipBytes: gzipBytes(json) }))
  .sort((a, b) => b.gzipBytes - a.gzipBytes)[0];

function publish(): Plugin {
  return {
    name: "assent-publish",
    writeBundle(_options, bundle) {
      const manifestPath = `${outDir}/manifest.json`;
      const manifest: Manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, "utf8")) : {};
      const gzipOf = (fileName: string) => gzipBytes(readFileSync(`${outDir}/${fileName}`));
      const chunks = Object.values(bundle).filter((chunk) => chunk.type === "chunk");
      // The TCF part: its chunk and the vendor list's, which it fetches when the list is opened.
      const tcf = chunks.filter((chunk) => chunk.facadeModuleId?.includes("/widget/src/tcf/"));
      const tcfBytes = tcf.reduce((sum, chunk) => sum + gzipOf(chunk.fileName), 0);
      if (tcfBytes > tcfBudgetBytes) {
        throw new Error(`${tcf.map((chunk) => chunk.fileName).join(" + ")} are ${tcfBytes} bytes min+gzip, over the TCF part's budget of ${tcfBudgetBytes}.`);
      }
      const total = chunks.reduce((sum, chunk) => sum + gzipOf(chunk.fileName), 0) - tcfBytes + largestLanguage.gzipBytes;
      if (total > totalBudgetBytes) {
        throw new Error(
          `The ${chunks.length} files of this build and its largest language (${largestLanguage.tag}) are ${total} bytes min+gzip, over the total budget of ${totalBudgetBytes}.`,
        );
      }
      for (const chunk of chunks) {
        if (!chunk.isEntry) continue;
        const code = readFileSync(`${outDir}/${chunk.fileName}`);
        const entryBytes = gzipOf(chunk.fileName);
        // The classic build carries everything in its one file, so only the total budget applies to it.
        if (chunks.length > 1 && entryBytes > eagerBudgetBytes) {
          throw new Error(`${chunk.fileName} is ${entryBytes} bytes min+gzip, over the eager budget of ${eagerBudgetBytes}.`);
        }
        const hash = createHash("sha256").update(code).digest("hex").slice(0, 10);
        const file = chunk.fileName.replace(/\.js$/, `.${hash}.js`);
        writeFileSync(`${outDir}/${file}`, code);
        manifest[chunk.fileName] = {
          file,
          integrity: `sha384-${createHash("sha384").update(code).digest("base64")}`,
          gzipBytes: entryBytes,
          totalGzipBytes: total,
          chunks: chunks.filter((other) => !other.isEntry).map((other) => other.fileName),
          languages: { folder: `i18n/${languagesVersion}`, count: Object.keys(languages).length, largest: largestLanguage },
        };
        // Printed whatever the log level: the build's size report.
        console.log(
          `${chunk.fileName} -> ${file}: ${entryBytes} bytes min+gzip (${chunks.length > 1 ? `eager budget ${eagerBudgetBytes}` : "one file: the total budget applies"}); ` +
            `${Object.keys(languages).length} languages, largest ${largestLanguage.tag} ${largestLanguage.gzipBytes} (budget ${languageBudgetBytes}); ` +
            `one visitor at most ${total} (budget ${totalBudgetBytes})` +
            (tcf.length ? `; the TCF part ${tcfBytes} (budget ${tcfBudgetBytes})` : ""),
        );
      }
      writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + "\n");
      const current = existsSync(headersFile) ? readFileSync(headersFile, "utf8") : "";
      const others = current.replace(/# assent-widget:begin[\s\S]*?# assent-widget:end\n/, "");
      writeFileSync(headersFile, others + headersBlock(manifest));
    },
  };
}

/** The blocker's build: blocking.js and its words, blocking-i18n/<version>/<tag>.json; fails over its budget. */
function blockingBuild(): Plugin {
  return {
    name: "assent-blocking",
    generateBundle() {
      for (const [tag, json] of Object.entries(blockingFiles)) this.emitFile({ type: "asset", fileName: `blocking-i18n/${blockingVersion}/${tag}.json`, source: json });
    },
    writeBundle() {
      const bytes = gzipBytes(readFileSync(`${outDir}/blocking.js`));
      if (bytes > blockingBudgetBytes) throw new Error(`blocking.js is ${bytes} bytes min+gzip, over its budget of ${blockingBudgetBytes}.`);
      console.log(`blocking.js: ${bytes} bytes min+gzip (budget ${blockingBudgetBytes}); placeholder words for ${Object.keys(blockingFiles).length} languages`);
    },
  };
}

/**
 * The page needs of the catalogue only what the placeholders name (id, name, company, embed) and the consent calls:
 * the blocker's build drops every other one-line field of shared/vendors/catalogue.ts (hosts, cookies, policies,
 * purposes, Consent Mode types, descriptions), about a third of its bytes. A field spread over lines would leave
 * broken code here, so the build fails rather than ship it.
 */
function pageCatalogue(): Plugin {
  const unused = /^ {4}(privacyPolicy|hosts|cookies|purpose|consentModeTypes|consentCallDescription|cookieless|servedBy): .*,$\n/gm;
  return {
    name: "assent-page-catalogue",
    enforce: "pre",
    transform(code, id) {
      return id.endsWith("/shared/vendors/catalogue.ts") ? code.replace(unused, "") : null;
    },
  };
}

/**
 * The widget needs of the catalogue only its embeds (src/gated-frames.ts names the vendor of a frame gated by hand),
 * and of those only what a placeholder says and the hosts that find them: its builds take that much of
 * shared/vendors/catalogue.ts (imported here), rather than every vendor's consent call and details.
 */
function embedCatalogue(): Plugin {
  return {
    name: "assent-embed-catalogue",
    enforce: "pre",
    transform(_code, id) {
      if (!id.endsWith("/shared/vendors/catalogue.ts")) return null;
      const embeds = vendors.filter((vendor) => vendor.embed).map(({ id, name, company, hosts, embed }) => ({ id, name, company, hosts, embed }));
      return `export const vendors = ${JSON.stringify(embeds)};\nexport const vendorById = new Map(vendors.map((vendor) => [vendor.id, vendor]));\n`;
    },
  };
}

/**
 * The classic build carries every part in its one file, and the TCF part would more than double it for every page
 * using it: there the part only says, in the console, that TCF needs the module build (docs/tcf.md#loading).
 */
function classicWithoutTcf(): Plugin {
  return {
    name: "assent-classic-without-tcf",
    enforce: "pre",
    load(id) {
      if (!id.endsWith("/widget/src/tcf/tcf.ts")) return null;
      return `export default () => console.warn("Assent: this project uses IAB TCF, which needs the module build (<script type=\\"module\\" src=\\".../widget/assent.js\\">), not assent.classic.js.");`;
    },
  };
}

export default defineConfig(({ mode }) => {
  if (mode === "blocking") {
    return {
      root: fileURLToPath(new URL(".", import.meta.url)),
      logLevel: "warn",
      plugins: [pageCatalogue(), blockingBuild()],
      define: blockingDefines,
      build: {
        outDir,
        emptyOutDir: false,
        target: "es2022",
        minify: true,
        reportCompressedSize: false,
        lib: { entry: "src/blocking/index.ts", formats: ["iife"], name: "AssentBlocking", fileName: () => "blocking.js" },
        rolldownOptions: { output: { minify: true } },
      },
    };
  }
  const classic = mode === "classic";
  return {
    root: fileURLToPath(new URL(".", import.meta.url)),
    logLevel: "warn",
    plugins: [minifyStyles(), collapseTemplates(), embedCatalogue(), ...(classic ? [classicWithoutTcf()] : []), emitLanguages(), publish()],
    // Lit's production build whatever NODE_ENV says (vitest runs the build with NODE_ENV=test).
    resolve: { conditions: ["module", "browser", "production"] },
    // A classic script finds its URL in document.currentScript; import.meta does not exist there.
    define: {
      __ASSENT_I18N__: JSON.stringify(languagesVersion),
      __ASSENT_TCF_I18N__: JSON.stringify(tcfWordsVersion),
      ...blockingDefines,
      ...(classic ? { "import.meta.url": "undefined" } : {}),
    },
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
        // The classic entry also places its own element when its URL names a project (src/classic.ts).
        entry: classic ? "src/classic.ts" : "src/index.ts",
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
