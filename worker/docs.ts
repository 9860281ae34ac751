import { html } from "hono/html";
import { iconLink } from "./site/icon";

type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
};
type Document = {
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
};

const methods = ["get", "post", "put", "patch", "delete"];

type Markup = ReturnType<typeof html>;

/** The inline Markdown of the OpenAPI descriptions: `code`, **strong**, *em*, [links](https or /path). */
const inlineForm = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|\[([^\]]+)\]\(((?:https:\/\/|\/)[^)\s]*)\)/g;

/** A text with its inline Markdown as markup; hono/html escapes the text around it. */
function inline(text: string): (string | Markup)[] {
  const parts: (string | Markup)[] = [];
  let at = 0;
  for (const match of text.matchAll(inlineForm)) {
    const [whole, code, strong, em, label, href] = match;
    parts.push(
      text.slice(at, match.index),
      code !== undefined
        ? html`<code>${code}</code>`
        : strong !== undefined
          ? html`<strong>${inline(strong)}</strong>`
          : em !== undefined
            ? html`<em>${inline(em)}</em>`
            : html`<a href="${href}">${inline(label)}</a>`,
    );
    at = match.index + whole.length;
  }
  parts.push(text.slice(at));
  return parts;
}

/** The subset of Markdown the descriptions use: paragraphs, `- ` lists and the inline forms above. */
const markdown = (text: string) =>
  text.split(/\n{2,}/).map((block) => {
    const lines = block.split("\n");
    return lines.every((line) => /^\s*[-*] /.test(line))
      ? html`<ul>${lines.map((line) => html`<li>${inline(line.replace(/^\s*[-*] /, ""))}</li>`)}</ul>`
      : html`<p>${inline(block)}</p>`;
  });

/** A tag's page under /docs: its name in lower case, each run of other characters one hyphen ("Admin: hub" → admin-hub). */
export const tagSlug = (tag: string) => tag.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

type Entry = { method: string; path: string; op: Operation };

/** The operations by their first tag, in the document's order. */
function operationsByTag(doc: Document) {
  const byTag = new Map<string, Entry[]>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of methods) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, op }]);
    }
  }
  return byTag;
}

/** An operation's anchor on its tag's page. */
const anchorOf = ({ method, path }: Entry) => `${method}${path.replace(/[^A-Za-z0-9_]+/g, "-")}`.replace(/-$/, "");

/**
 * The API reference, rendered on the server from the OpenAPI document: no script and no CDN, so it works offline and
 * under the strictest CSP. `/docs` is the overview (every operation, one line each, linking to its tag's page), each
 * tag has a page at `/docs/{tag}` with its operations in full, and `/docs/schemas` holds the schemas. One page with
 * everything (5,000 elements) kept a phone's main thread busy laying it out for seconds (docs/audits.md). `slug`: ""
 * for the overview, "schemas", or a tag's `tagSlug`; null when there is no such page.
 */
export function docsPage(doc: Document, slug = "") {
  const byTag = operationsByTag(doc);
  const tags = [...byTag.keys()];
  const tag = tags.find((name) => tagSlug(name) === slug);
  const page = slug === "" ? "index" : slug === "schemas" ? "schemas" : tag ? { tag } : null;
  if (!page) return null;
  const nav = html`<nav><a href="/docs">Overview</a>${tags.map((t) => html`<a href="/docs/${tagSlug(t)}">${t}</a>`)}<a href="/docs/schemas">Schemas</a></nav>`;
  const title = page === "index" ? "API reference" : page === "schemas" ? "API reference: schemas" : `API reference: ${page.tag}`;
  const body =
    page === "index"
      ? html`${markdown(doc.info.description ?? "")}
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
${nav}
${tags.map(
  (tag) => html`<h2 id="${tag}">${tag}</h2>
<ul class="ops">${byTag.get(tag)!.map(
    (entry) => html`<li><a href="/docs/${tagSlug(tag)}#${anchorOf(entry)}"><span class="m ${entry.method}">${entry.method}</span> <code>${entry.path}</code></a> ${inline(entry.op.summary ?? "")}</li>`,
  )}</ul>`,
)}`
      : page === "schemas"
        ? html`${nav}
<h2 id="schemas">Schemas</h2>
${Object.entries(doc.components?.schemas ?? {}).map(
  ([name, s]) => html`<details id="schema-${name}"><summary><code>${name}</code></summary><pre>${schema(s)}</pre></details>`,
)}`
        : html`${nav}
<h2 id="${page.tag}">${page.tag}</h2>
${(byTag.get(page.tag) ?? []).map(operation)}`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${doc.info.title} ${title}</title>
<meta name="description" content="The ${doc.info.title} HTTP API: every operation, who may call it, its parameters, request bodies and responses.">
${iconLink}
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem 1.5rem;color:#1b1f24}
h2{border-bottom:1px solid #d0d7de;padding-bottom:.25rem;margin-top:2.5rem}
.op{border:1px solid #d0d7de;border-radius:6px;margin:.75rem 0;padding:.5rem .75rem}
.m{display:inline-block;min-width:4.5rem;font-weight:700;text-transform:uppercase;font-family:monospace}
.get{color:#0a6a2f}.post{color:#0550ae}.put{color:#7d4e00}.delete{color:#a40e26}.patch{color:#6639ba}
code,pre{font-family:ui-monospace,monospace;font-size:13px}pre{background:#f6f8fa;padding:.5rem;overflow:auto;border-radius:4px}
code{overflow-wrap:anywhere}p,li,summary{overflow-wrap:break-word}
summary{padding:.2rem 0}
nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem}
nav a,.ops a{display:inline-block;min-height:24px}
.ops{padding-left:1.25rem}.ops li{margin:.25rem 0}
@media (max-width:40rem){body{padding:.5rem .75rem}.m{min-width:3.5rem}}
</style>
</head>
<body>
<h1>${doc.info.title} <small>${doc.info.version}</small></h1>
${body}
</body>
</html>`;
}

const schema = (value: unknown) => JSON.stringify(value, null, 2);

/** One operation in full, as its tag's page shows it. */
const operation = (entry: Entry) => {
  const { method, path, op } = entry;
  return html`<div class="op" id="${anchorOf(entry)}">
<div><span class="m ${method}">${method}</span> <code>${path}</code></div>
<p><strong>${inline(op.summary ?? "")}</strong></p>
${op.description ? markdown(op.description) : ""}
<p>Access: ${access(op.security)}</p>
${op.parameters?.length ? html`<p>Parameters: ${op.parameters.map((p) => html`<code>${p.name}</code> (${p.in}${p.required ? ", required" : ""}) `)}</p>` : ""}
${Object.entries(op.requestBody?.content ?? {}).map(
  ([type, media]) => html`<details><summary>Request body <code>${type}</code></summary><pre>${schema(media.schema)}</pre></details>`,
)}
<details><summary>Responses</summary><ul>${Object.entries(op.responses ?? {}).map(
  ([status, r]) => html`<li><code>${status}</code> ${inline(r.description ?? "")}</li>`,
)}</ul></details>
</div>`;
};

/** Who may call an operation, from its security requirements (worker/auth/scopes.ts). */
const access = (security: Operation["security"]) =>
  security === undefined
    ? "undeclared"
    : security.length === 0
      ? "public"
      : security
          .map((r) => Object.entries(r).map(([scheme, scopes]) => `${scheme}${scopes.length ? ` (${scopes.join(", ")})` : ""}`)[0] ?? "no credential")
          .join(" or ");
