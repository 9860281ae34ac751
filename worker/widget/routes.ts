import { asc, eq } from "drizzle-orm";
import type { Context } from "hono";
import { html } from "hono/html";
import { livePurpose } from "../configuration/queries";
import { purposes } from "../configuration/table";
import type { AppEnv } from "../env";
import { getDb } from "../lib/db";
import { createRouter } from "../auth/router";
import { regimes, type Regime } from "../jurisdictions/rules";
import { projects } from "../projects/table";
import { iconLink } from "../site/icon";
import { demoScript, demoStyles, gatedScript } from "./demo-assets";

/**
 * The demo page at `/`: the consent widget on the project `npm start` seeds ("Assent demo"), so the first
 * thing a new user sees is the product working. It runs under a strict Content-Security-Policy (no inline
 * script or style anywhere), the same policy the widget is tested against.
 */
export const widgetRoutes = createRouter();

/** The name scripts/seed.mjs gives the demo project. */
const demoProjectName = "Assent demo";

const strictCsp =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-src 'self'; base-uri 'none'; object-src 'none'; form-action 'none'; frame-ancestors 'none'";

async function demoPage(c: Context<AppEnv>) {
  const db = getDb(c.var.db);
  const [project] = await db
    .select({ id: projects.id })
    .from(projects)
    .where(eq(projects.name, demoProjectName))
    .orderBy(asc(projects.id))
    .limit(1);
  const origin = new URL(c.req.url).origin;
  const widget = await widgetEntry(c);
  c.header("Content-Security-Policy", strictCsp);
  c.header("Cache-Control", "no-store");
  if (!project) {
    return c.html(
      page(widget, html`<main><h1>Assent</h1><p>No demo project yet. <code>npm start</code> seeds one named “${demoProjectName}”;
      the <a href="/docs">API reference</a> is here either way.</p></main>`),
    );
  }
  const purposeRows = await db
    .select({ content: purposes.content })
    .from(purposes)
    .where(livePurpose(project.id))
    .orderBy(asc(purposes.id));
  const gatedPurpose = purposeRows.find((row) => row.content.legalGround === "consent")?.content;
  const switcher = c.env.LOCAL_DEV === "true" ? regimeSwitch(regimeParam(c.req.query("regime"))) : undefined;
  const snippet = `<script type="module" src="${origin}/widget/assent.js"></script>\n<assent-consent project="${project.id}"></assent-consent>`;
  return c.html(
    page(widget, html`
    <header class="bar">
      <span class="brand">Demo Shop</span>
      <span class="spacer"></span>
      <label>Language <select id="lang"><option value="en">English</option><option value="sv">Svenska</option>
        <option value="de">Deutsch</option><option value="fr">Français</option><option value="es">Español</option></select></label>
      <button id="privacy-settings" type="button">Privacy settings</button>
    </header>
    ${switcher?.bar ?? ""}
    <main>
      <h1>Consent your visitors can trust</h1>
      <p class="lead">This page embeds the Assent consent widget on the seeded project <strong>${demoProjectName}</strong>
      with one script tag, under a strict Content-Security-Policy. Make a choice in the dialog, reload, and it is
      still there: it was recorded as a permission request and read back as the visitor's permission state.</p>
      ${switcher?.note ?? ""}
      <h2>The whole integration</h2>
      <pre><code>${snippet}</code></pre>
      <div class="cards">
        <section class="card">
          <h2>What this page may use now</h2>
          <ul id="state"><li class="muted">Waiting for the widget…</li></ul>
          <p class="muted"><span id="regime"></span> <span id="identity"></span></p>
        </section>
        <section class="card">
          <h2>Script gating</h2>
          ${
            gatedPurpose
              ? html`<p>A script tagged <code>data-assent-purpose="${gatedPurpose.referenceId}"</code> runs only once
                 “${gatedPurpose.name}” is approved.</p>
                 <p id="gated" class="pill off">Not run: no approval yet</p>
                 <script type="text/plain" data-assent-purpose="${gatedPurpose.referenceId}" src="${demoFiles.gated.path}"></script>`
              : html`<p class="muted">The demo project has no consent-based purpose yet.</p>`
          }
        </section>
      </div>
      <p class="muted">API reference: <a href="/docs">/docs</a> · OpenAPI: <a href="/openapi.json">/openapi.json</a></p>
    </main>
    <assent-consent project="${project.id}" application="assent-demo"${switcher?.attribute ?? ""}></assent-consent>`),
  );
}

const regimeParam = (value: string | undefined) => regimes.find((regime) => regime === value);

const regimeLabels: Record<Regime, string> = { "opt-in": "Opt-in", "opt-out": "Opt-out", notice: "Notice" };

/**
 * Locally (`LOCAL_DEV`) the bootstrap honours a forced regime, so the demo offers each one as a link (`/?regime=…`,
 * no script needed): what a visitor in the EEA, in a US state with a privacy law and elsewhere would see.
 * "Automatic" is what the service decides (here, without a real location: the project's jurisdiction).
 */
function regimeSwitch(chosen: Regime | undefined) {
  const link = (href: string, label: string, current: boolean) =>
    current ? html`<a href="${href}" aria-current="page">${label}</a>` : html`<a href="${href}">${label}</a>`;
  const links = [
    link("/", "Automatic", !chosen),
    ...regimes.map((regime) => link(`/?regime=${regime}`, regimeLabels[regime], regime === chosen)),
  ];
  return {
    bar: html`<nav class="regimes" aria-label="Regime"><span class="muted">Regime</span> ${links.map((a) => html`${a} `)}
      <button id="new-visitor" type="button">New visitor</button></nav>`,
    attribute: chosen ? html` regime="${chosen}"` : "",
    note: html`<p class="muted">Which question a visitor gets depends on where they are. Running locally, the service
      usually cannot tell, so the project's own jurisdiction decides (“Automatic”); the links above show each regime,
      and <em>New visitor</em> forgets this browser's choices.</p>`,
  };
}

const page = (widget: WidgetEntry, body: ReturnType<typeof html>) => html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Assent demo</title>
<meta name="description" content="The Assent consent widget on a demo shop: a consent banner under a strict Content-Security-Policy, the visitor's choices recorded and read back.">
${iconLink}
<link rel="stylesheet" href="${demoFiles.styles.path}">
<script type="module" src="${widget.src}"${widget.integrity ? html` integrity="${widget.integrity}"` : ""}></script>
<script type="module" src="${demoFiles.script.path}"></script>
</head>
<body>${body}</body>
</html>`;

widgetRoutes.get("/", demoPage);

/** FNV-1a over the text: names a file by its content (a cache key, not a security measure). */
const contentHash = (text: string) => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
};

/**
 * The demo page's own files, each under a name that changes with its content, so a browser keeps them for a year
 * and a new version is a new name.
 */
const demoFiles = Object.fromEntries(
  (
    [
      ["styles", "demo", "css", "text/css", demoStyles],
      ["script", "demo", "js", "text/javascript", demoScript],
      ["gated", "gated", "js", "text/javascript", gatedScript],
    ] as const
  ).map(([key, name, extension, type, body]) => [key, { path: `/demo/${name}.${contentHash(body)}.${extension}`, type, body }]),
) as Record<"styles" | "script" | "gated", { path: string; type: string; body: string }>;

const immutable = "public, max-age=31536000, immutable";
for (const { path, type, body } of Object.values(demoFiles)) {
  widgetRoutes.get(path, (c) => c.body(body, 200, { "content-type": `${type}; charset=utf-8`, "cache-control": immutable }));
}

type WidgetEntry = { src: string; integrity?: string };

/**
 * The widget as the demo loads it: its content-hashed copy with its SRI hash (widget/manifest.json, written by the
 * build), which is cached for a year; the stable /widget/assent.js, cached for minutes so embedding sites get
 * updates, when the manifest is missing (the client is not built).
 */
const widgetEntry = async (c: Context<AppEnv>): Promise<WidgetEntry> => {
  const stable = { src: "/widget/assent.js" };
  const res = await c.env.ASSETS.fetch(new URL("/widget/manifest.json", c.req.url)).catch(() => undefined);
  if (!res?.ok) return stable;
  const entry = ((await res.json()) as Record<string, { file: string; integrity: string } | undefined>)["assent.js"];
  return entry ? { src: `/widget/${entry.file}`, integrity: entry.integrity } : stable;
};
