import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { vendors } from "../../shared/vendors/catalogue";
import { configuredTenant } from "./configuration-fixture";
import { admin, call, expectProblem, newClient, newProject, ok, origin, problemOf } from "./helpers";

type Tenant = Awaited<ReturnType<typeof configuredTenant>>;
type Entry = { host: string; purpose: string; source: "scan" | "catalogue" | "manual"; vendor?: string };

const blocking = (projectId: string) => `/projects/${projectId}/blocking` as const;
const put = (projectId: string, enabled: boolean, entries: Entry[]) => admin("PUT", blocking(projectId), { enabled, entries });
const listOf = async (projectId: string) => ok(await admin("GET", blocking(projectId)));

const stored: Entry[] = [
  { host: "connect.facebook.net", purpose: "marketing", source: "catalogue", vendor: "meta-pixel" },
  { host: "*.clarity.ms", purpose: "analytics", source: "scan" },
  { host: "pixel.partner.example", purpose: "marketing", source: "manual" },
];

describe("a project's blocking list", () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await configuredTenant();
    // The site's own pages: nothing on the list may cover these hosts.
    await newClient(t.projectId, "web", ["https://shop.example", "https://www.shop.example:8443"]);
  });

  it("is empty and off for a project that never set one", async () => {
    expect(await listOf(t.projectId)).toEqual({ enabled: false, entries: [] });
  });

  it("stores the list and answers it, in order, on PUT and GET; a second PUT replaces it", async () => {
    expect(ok(await put(t.projectId, true, stored))).toEqual({ enabled: true, entries: stored });
    expect(await listOf(t.projectId)).toEqual({ enabled: true, entries: stored });
    const shorter = [stored[2], stored[0]];
    expect(ok(await put(t.projectId, false, shorter))).toEqual({ enabled: false, entries: shorter });
    expect(await listOf(t.projectId)).toEqual({ enabled: false, entries: shorter });
    await put(t.projectId, true, stored);
  });

  it("gives the page side each entry's vendor at blocking.json: its own, else the catalogue vendor listing the host", async () => {
    ok(await put(t.projectId, true, [...stored, { host: "region1.google-analytics.com", purpose: "analytics", source: "scan" }]));
    const reply = await call("GET", `/widget/v1/projects/${t.projectId}/blocking.json`);
    expect(ok(reply)).toEqual({
      api: origin,
      project: t.projectId,
      entries: [
        { host: stored[0].host, purpose: "marketing", vendor: "meta-pixel" },
        { host: stored[1].host, purpose: "analytics", vendor: "microsoft-clarity" },
        { host: stored[2].host, purpose: "marketing", vendor: null },
        { host: "region1.google-analytics.com", purpose: "analytics", vendor: "google-analytics" },
      ],
    });
    ok(await put(t.projectId, true, stored));
  });

  it("serves blocking.json publicly, cached for a minute and revalidated by its ETag; empty when switched off", async () => {
    const url = `/widget/v1/projects/${t.projectId}/blocking.json` as const;
    const first = await call("GET", url);
    expect(first.headers.get("cache-control")).toBe("public, max-age=60");
    expect(first.headers.get("access-control-allow-origin")).toBe("*");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await call("GET", url, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    ok(await put(t.projectId, false, stored));
    const off = await call("GET", url, { headers: { "if-none-match": etag } });
    expect(ok(off)).toMatchObject({ entries: [] });
    expect(off.headers.get("etag")).not.toBe(etag);
    ok(await put(t.projectId, true, stored));
  });

  it("names the configured public origin (ISSUER) in blocking.json, whatever Host the request came with", async () => {
    // Cached publicly: a Host header an attacker chose must never reach it (blocking.js inlines the same config).
    const json = await exports.default.fetch(new Request(`http://evil.example/widget/v1/projects/${t.projectId}/blocking.json`));
    expect(json.status).toBe(200);
    expect(((await json.json()) as { api: string }).api).toBe(origin);
  });

  it("answers 404 for blocking.json of a project that does not exist", async () => {
    expectProblem(await call("GET", "/widget/v1/projects/prj_doesnotexist/blocking.json"), 404, "not_found");
  });

  it("holds 500 entries (one statement, whatever D1's limit of bound values) and refuses 501", async () => {
    const many = Array.from({ length: 500 }, (_, i): Entry => ({ host: `t${i}.tracker.example`, purpose: "analytics", source: "scan" }));
    expect(ok(await put(t.projectId, true, many)).entries).toHaveLength(500);
    expect((await listOf(t.projectId)).entries).toEqual(many);
    const tooMany = await put(t.projectId, true, [...many, { host: "one-more.example", purpose: "analytics", source: "manual" }]);
    expectProblem(tooMany, 400, "validation_failed");
    expect(problemOf(tooMany).errors).toContainEqual(expect.objectContaining({ path: "entries", code: "too_big" }));
    expect((await listOf(t.projectId)).entries).toEqual(many);
    ok(await put(t.projectId, true, stored));
  });

  /** A refused list answers 400 with `code` and changes nothing. */
  const refused = async (entries: Entry[], code: string, fieldCode: string, path: string) => {
    const reply = await put(t.projectId, false, entries);
    expectProblem(reply, 400, code);
    expect(problemOf(reply).errors, JSON.stringify(entries)).toContainEqual(expect.objectContaining({ path, code: fieldCode }));
    expect(await listOf(t.projectId)).toEqual({ enabled: true, entries: stored });
  };

  it.each([
    ["a URL", "https://cdn.tracker.example"],
    ["a path with a query", "cdn.tracker.example/pixel.gif?id=1"],
    ["a path with a fragment", "cdn.tracker.example/pixel#x"],
    ["a path climbing out", "cdn.tracker.example/a/../b"],
    ["a path with a space", "cdn.tracker.example/a b"],
    ["a port", "cdn.tracker.example:8080"],
    ["upper case", "CDN.Tracker.example"],
    ["a wildcard not leading", "cdn.*.example"],
    ["two wildcards", "*.*.tracker.example"],
    ["a bare wildcard", "*"],
    ["an IPv4 address", "192.0.2.10"],
    ["an IPv6 address", "[2001:db8::1]"],
    ["a trailing dot", "cdn.tracker.example."],
    ["an empty label", "cdn..tracker.example"],
    ["a label starting with a hyphen", "-cdn.tracker.example"],
    ["spaces", "cdn tracker.example"],
    ["nothing", ""],
    ["a label longer than 63", `${"a".repeat(64)}.example`],
  ])("refuses a host that is %s (400 invalid_host)", async (_, host) => {
    await refused([stored[0], { host, purpose: "analytics", source: "manual" }], "validation_failed", "invalid_host", "entries.1.host");
  });

  it.each([
    ["a wildcard over a top-level domain", "*.com"],
    ["a wildcard over a country's second-level suffix", "*.co.uk"],
    ["a wildcard over a hosting suffix (the list's private section)", "*.github.io"],
    ["a public suffix itself", "co.uk"],
    ["a public suffix with a path prefix", "*.com/pixel"],
  ])("refuses %s (400 public_suffix): it would hold back every site under it", async (_, host) => {
    await refused([stored[0], { host, purpose: "analytics", source: "manual" }], "validation_failed", "public_suffix", "entries.1.host");
  });

  it("takes a registrable domain under a listed suffix, and a wildcard over one", async () => {
    const project = await configuredTenant();
    const entries: Entry[] = [
      { host: "*.tracker.co.uk", purpose: "analytics", source: "manual" },
      { host: "pixels.github.io", purpose: "analytics", source: "manual" },
    ];
    expect(ok(await put(project.projectId, true, entries)).entries).toEqual(entries);
  });

  it("takes a host with a path prefix, and the same host again with another prefix", async () => {
    const rules: Entry[] = [
      { host: "www.google.com/maps/embed", purpose: "analytics", source: "catalogue", vendor: "google-maps" },
      { host: "www.google.com/pagead/", purpose: "marketing", source: "manual" },
    ];
    expect(ok(await put(t.projectId, true, rules)).entries).toEqual(rules);
    ok(await put(t.projectId, true, stored));
  });

  it("refuses a host listed twice (400 duplicate_host)", async () => {
    await refused([...stored, { ...stored[2], source: "scan" }], "validation_failed", "duplicate_host", "entries.3.host");
  });

  it("refuses a vendor the catalogue does not have (400 unknown_vendor)", async () => {
    await refused([{ host: "cdn.tracker.example", purpose: "analytics", source: "catalogue", vendor: "no-such-vendor" }], "validation_failed", "unknown_vendor", "entries.0.vendor");
  });

  it("refuses a purpose the project does not have: unknown, another project's, deleted (400 unknown_purpose)", async () => {
    await refused([stored[0], { host: "cdn.tracker.example", purpose: "no-such-purpose", source: "manual" }], "unknown_purpose", "unknown_purpose", "entries.1.purpose");
    const other = await configuredTenant();
    ok(await other.api("POST", "/configurations/purposes", { referenceId: "theirs", name: "Theirs", legalGround: "consent", dataGroups: [other.email], controllers: [other.controller] }), 201);
    await refused([{ host: "cdn.tracker.example", purpose: "theirs", source: "manual" }], "unknown_purpose", "unknown_purpose", "entries.0.purpose");
    const gone = ok(
      await t.api("POST", "/configurations/purposes", { referenceId: "gone", name: "Gone", legalGround: "consent", dataGroups: [t.email], controllers: [t.controller] }),
      201,
    ).purposeId;
    expect((await t.api("DELETE", `/configurations/purposes/${gone}`)).status).toBe(204);
    await refused([{ host: "cdn.tracker.example", purpose: "gone", source: "manual" }], "unknown_purpose", "unknown_purpose", "entries.0.purpose");
  });

  it.each([
    ["the page's own host", "shop.example", "entries.0.host"],
    ["another of the page's own hosts (its port does not matter)", "www.shop.example", "entries.0.host"],
    ["a wildcard over a page's own host", "*.shop.example", "entries.0.host"],
    ["a wildcard over the page's domain", "*.example", "entries.0.host"],
    ["the service's own host, where the widget loads from", "assent.test", "entries.0.host"],
    ["a wildcard over the service's host", "*.test", "entries.0.host"],
    ["the page's own host with a path prefix", "shop.example/checkout", "entries.0.host"],
  ])("refuses %s (400 blocks_own_origin)", async (_, host, path) => {
    await refused([{ host, purpose: "marketing", source: "manual" }, stored[0]], "blocks_own_origin", "blocks_own_origin", path);
  });

  it("takes a wildcard that covers only other subdomains of a page's domain, and the page's sibling hosts", async () => {
    const project = await configuredTenant();
    await newClient(project.projectId, "web", ["https://shop.example"]);
    const entries: Entry[] = [
      { host: "*.shop.example", purpose: "analytics", source: "manual" },
      { host: "tracker.example", purpose: "analytics", source: "manual" },
    ];
    expect(ok(await put(project.projectId, true, entries)).entries).toEqual(entries);
  });

  it("answers 404 for a project that does not exist, and keeps each project's list its own", async () => {
    expectProblem(await admin("GET", blocking("prj_missing")), 404, "not_found");
    expectProblem(await put("prj_missing", true, []), 404, "not_found");
    const { projectId } = await newProject();
    expect(await listOf(projectId)).toEqual({ enabled: false, entries: [] });
    expect(await listOf(t.projectId)).toEqual({ enabled: true, entries: stored });
  });

  it("is the operator's: a project's own token cannot read or write it", async () => {
    expectProblem(await call("GET", `/admin/v1${blocking(t.projectId)}`, { token: t.token }), 401, "unauthorized");
    expectProblem(await call("PUT", `/admin/v1${blocking(t.projectId)}`, { token: t.token, body: { enabled: false, entries: [] } }), 401, "unauthorized");
    expect(await listOf(t.projectId)).toEqual({ enabled: true, entries: stored });
  });
});

describe("the vendor catalogue", () => {
  it("is served to the operator without the consent functions, saying which vendors have one", async () => {
    const { vendors: served } = ok(await admin("GET", "/vendors"));
    expect(served.map((vendor) => vendor.id)).toEqual(vendors.map((vendor) => vendor.id));
    for (const vendor of served) {
      const own = vendors.find(({ id }) => id === vendor.id)!;
      expect(vendor).not.toHaveProperty("consent");
      expect(vendor).toMatchObject({ hosts: own.hosts, cookies: own.cookies, purpose: own.purpose, consentModeTypes: own.consentModeTypes });
      expect(vendor.consentCall).toBe(own.consent !== undefined);
      expect(vendor.consentCallDescription !== null).toBe(own.consent !== undefined);
    }
    expect(served.find(({ id }) => id === "meta-pixel")!.consentCallDescription).toBe("fbq('consent', 'grant'|'revoke')");
  });

  it("is public data: the same catalogue without a credential at /browser/v1/vendors, the admin path needs the operator", async () => {
    const open = await call("GET", "/browser/v1/vendors");
    expect(open.status).toBe(200);
    expect(open.body).toEqual(ok(await admin("GET", "/vendors")));
    expectProblem(await call("GET", "/admin/v1/vendors"), 401, "unauthorized");
  });
});
