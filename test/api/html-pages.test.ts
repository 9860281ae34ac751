import { describe, expect, it } from "vitest";
import { docsPage } from "../../worker/docs";
import { configuredTenant } from "./configuration-fixture";
import { admin, call, newClient, ok, tokenFor } from "./helpers";

/*
 * The two pages the Worker renders itself: the API reference (/docs, from the OpenAPI document's Markdown) and the
 * demo page (/, with the demo project's names). Text from a document or a project is text, never markup.
 * Escapes are matched in either spelling (named or numeric), so the assertions hold whichever escaper writes them.
 */
const lt = "&(?:lt|#60);";
const gt = "&(?:gt|#62);";
const amp = "&(?:amp|#38);";
const quot = "&(?:quot|#34);";

describe("the API reference page", () => {
  /** The overview and the one tag's page of a small document. */
  const render = async (description: string) => {
    const doc = {
      info: { title: "T<i>", version: "1", description },
      paths: { "/x": { get: { summary: "Sum <b>", tags: ["A&B"], security: [], responses: { "200": { description: "OK `<json>`" } } } } },
    };
    return String(await docsPage(doc)) + String(await docsPage(doc, "a-b"));
  };

  it("renders the descriptions' Markdown: paragraphs, lists, code, strong, em and https or local links", async () => {
    const page = await render("First *em* and **strong** with `a<b`.\n\n- one [docs](/docs)\n- two [site](https://example.com/?a=1&b=2)");
    expect(page).toMatch(new RegExp(`<p>First <em>em</em> and <strong>strong</strong> with <code>a${lt}b</code>.</p>`));
    expect(page).toMatch(new RegExp(`<ul><li>one <a href="/docs">docs</a></li><li>two <a href="https://example.com/\\?a=1${amp}b=2">site</a></li></ul>`));
    expect(page).toMatch(new RegExp(`<li><code>200</code> OK <code>${lt}json${gt}</code></li>`));
  });

  it("keeps markup in the document as text, and links only to https or local paths", async () => {
    const page = await render('<script>alert(1)</script> [x](javascript:alert(1)) [y](https://e.example/"onmouseover=alert(1))');
    expect(page).not.toContain("<script>alert");
    expect(page).toMatch(new RegExp(`${lt}script${gt}alert\\(1\\)${lt}/script${gt}`));
    expect(page).not.toMatch(/href="javascript:/);
    expect(page).not.toMatch(/"onmouseover/);
    expect(page).toMatch(new RegExp(`<title>T${lt}i${gt} API reference</title>`));
    expect(page).toMatch(new RegExp(`<strong>Sum ${lt}b${gt}</strong>`));
    expect(page).toMatch(new RegExp(`<a href="/docs/a-b">A${amp}B</a>`));
    expect(page).toMatch(new RegExp(`<h2 id="A${amp}B">A${amp}B</h2>`));
  });

  /** The elements of an HTML page: what the browser parses, styles and lays out. */
  const elementsOf = (page: string) => page.match(/<[a-z][a-z0-9-]*[\s>]/g)?.length ?? 0;

  it("is light enough for a phone: the overview lists every operation in one line each, and each tag's page and the schemas are pages of their own", async () => {
    const overview = await call("GET", "/docs");
    expect(overview.status).toBe(200);
    const html = String(overview.body);
    const links = [...new Set([...html.matchAll(/<a href="(\/docs\/[a-z0-9-]+)"/g)].map((m) => m[1]))];
    const document = (await call("GET", "/openapi.json")).body as { paths: Record<string, object> };
    const operations = Object.values(document.paths).flatMap((item) => Object.keys(item));
    expect(html.match(/<li><a href="\/docs\/[a-z0-9-]+#/g)?.length).toBe(operations.length);
    // Lighthouse flags more than 1,400 elements; the single page had some 5,000.
    expect(elementsOf(html)).toBeLessThan(1_400);
    expect(links).toContain("/docs/schemas");
    for (const link of links) {
      const page = await call("GET", link);
      expect(page.status, link).toBe(200);
      expect(elementsOf(String(page.body)), link).toBeLessThan(1_400);
    }
    expect((await call("GET", "/docs/no-such-tag")).status).toBe(404);
  });
});

describe("the demo page", () => {
  it("shows the demo project's purpose names and reference ids as text", async () => {
    const created = await admin("POST", "/projects", { name: "Assent demo", controller: { name: "Example AB" } });
    expect(created.status).toBe(201);
    const { projectId } = created.body;
    const { clientId, clientSecret } = await newClient(projectId);
    const token = await tokenFor(clientId, clientSecret);
    const api = <M extends string, P extends string>(method: M, path: P, body?: unknown) => call(method, `/privacy/v2/projects/${projectId}${path}`, { body, token });
    const t = await configuredTenant({ projectId, clientId, clientSecret, token, api });
    const name = `"><script>alert(1)</script>`;
    const purpose = { referenceId: "marketing", name, legalGround: "consent", dataGroups: [t.email], controllers: [t.controller] };
    ok(await api("PUT", `/configurations/purposes/${t.marketing}`, { ...purpose, requireNewConsent: false }));

    const reply = await call("GET", "/");
    const page = String(reply.body);
    expect(reply.status).toBe(200);
    expect(page).not.toContain("<script>alert");
    expect(page).toMatch(new RegExp(`“${quot}${gt}${lt}script${gt}alert\\(1\\)${lt}/script${gt}” is approved`));
    expect(page).toContain(`data-assent-purpose="marketing"`);
    // The snippet is shown as code, not run.
    expect(page).toMatch(new RegExp(`<pre><code>${lt}script type=${quot}module${quot} src=${quot}http://assent.test/widget/assent.js${quot}${gt}`));
    expect(page).toContain(`<assent-consent project="${projectId}" application="assent-demo"></assent-consent>`);
  });
});
