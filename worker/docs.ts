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

/**
 * The API reference at `/docs`, rendered on the server from the OpenAPI document: no script and no
 * CDN, so it works offline and under the strictest CSP.
 */
export function docsPage(doc: Document) {
  const byTag = new Map<string, { method: string; path: string; op: Operation }[]>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of methods) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, op }]);
    }
  }
  const schema = (value: unknown) => JSON.stringify(value, null, 2);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${doc.info.title} API reference</title>
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
@media (max-width:40rem){body{padding:.5rem .75rem}.m{min-width:3.5rem}}
</style>
</head>
<body>
<h1>${doc.info.title} <small>${doc.info.version}</small></h1>
${markdown(doc.info.description ?? "")}
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
<nav>${[...byTag.keys()].map((t) => html`<a href="#${encodeURIComponent(t)}">${t}</a>`)}</nav>
${[...byTag].map(
  ([tag, ops]) => html`<h2 id="${tag}">${tag}</h2>
${ops.map(
  ({ method, path, op }) => html`<div class="op">
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
</div>`,
)}`,
)}
<h2 id="schemas">Schemas</h2>
${Object.entries(doc.components?.schemas ?? {}).map(
  ([name, s]) => html`<details id="schema-${name}"><summary><code>${name}</code></summary><pre>${schema(s)}</pre></details>`,
)}
</body>
</html>`;
}

/** Who may call an operation, from its security requirements (worker/auth/scopes.ts). */
const access = (security: Operation["security"]) =>
  security === undefined
    ? "undeclared"
    : security.length === 0
      ? "public"
      : security
          .map((r) => Object.entries(r).map(([scheme, scopes]) => `${scheme}${scopes.length ? ` (${scopes.join(", ")})` : ""}`)[0] ?? "no credential")
          .join(" or ");
