import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { bootstrap, siteOrigin, widgetTenant, type WidgetTenant } from "./bootstrap-fixture";
import { countEvents, desktop, iphone, type Report } from "./analytics-helpers";
import { admin, expectProblem } from "./helpers";

const rowsOf = async (table: "analytics_counts" | "analytics_pages", projectId: string) =>
  (await env.DB.prepare(`SELECT * FROM ${table} WHERE project_id = ?`).bind(projectId).all<Record<string, string | number>>()).results;

const totals = (rows: Record<string, string | number>[], key: (row: Record<string, string | number>) => string) => {
  const sums: Record<string, number> = {};
  for (const row of rows) sums[key(row)] = (sums[key(row)] ?? 0) + Number(row.count);
  return sums;
};

describe("counting the banner's interactions", () => {
  let tenant: WidgetTenant;
  beforeAll(async () => {
    tenant = await widgetTenant();
  });

  it("stores aggregates equal to the events sent, by purpose, regime, language, device, path and variant", async () => {
    const { marketing, analytics } = tenant;
    const sent: Report[] = [];
    for (let i = 0; i < 12; i++) sent.push({ path: "/shop", events: [{ event: "banner_shown" }, { event: "accept_all", granted: [marketing, analytics] }] });
    for (let i = 0; i < 7; i++) sent.push({ path: "/shop/cart", language: "sv", events: [{ event: "banner_shown" }, { event: "reject_all", refused: [marketing, analytics] }] });
    for (let i = 0; i < 5; i++) {
      sent.push({ path: "/", regime: "opt-out", variant: "short-wording", events: [{ event: "banner_shown" }, { event: "customised", granted: [analytics], refused: [marketing] }] });
    }
    sent.push({ path: "/shop", events: [{ event: "banner_shown" }, { event: "dismissed" }] });
    sent.push({ path: "/account", events: [{ event: "preferences_reopened" }, { event: "withdrawn", refused: [marketing] }] });
    const replies = await Promise.all(sent.map((report, i) => countEvents(tenant.projectId, report, { "user-agent": i % 2 ? iphone : desktop })));
    expect(replies.map((r) => r.status)).toEqual(sent.map(() => 204));

    const counts = await rowsOf("analytics_counts", tenant.projectId);
    expect(totals(counts, (r) => `${r.event} ${r.purpose_id}`)).toEqual({
      "banner_shown ": 25,
      "accept_all ": 12,
      "reject_all ": 7,
      "customised ": 5,
      "dismissed ": 1,
      "preferences_reopened ": 1,
      "withdrawn ": 1,
      [`granted ${marketing}`]: 12,
      [`granted ${analytics}`]: 17,
      [`refused ${marketing}`]: 7 + 5 + 1,
      [`refused ${analytics}`]: 7,
    });
    const shown = counts.filter((r) => r.event === "banner_shown");
    expect(totals(shown, (r) => `${r.regime} ${r.language} ${r.variant}`)).toEqual({ "opt-in en ": 13, "opt-in sv ": 7, "opt-out en short-wording": 5 });
    expect(totals(shown, (r) => String(r.device))).toEqual({ desktop: 13, mobile: 12 });
    const pages = await rowsOf("analytics_pages", tenant.projectId);
    expect(totals(pages, (r) => `${r.event} ${r.path}`)).toEqual({
      "banner_shown /shop": 13,
      "accept_all /shop": 12,
      "dismissed /shop": 1,
      "banner_shown /shop/cart": 7,
      "reject_all /shop/cart": 7,
      "banner_shown /": 5,
      "customised /": 5,
      "preferences_reopened /account": 1,
      "withdrawn /account": 1,
    });
  });

  it("counts a page path without its query, fragment or anything that could name someone", async () => {
    const { projectId } = await widgetTenant();
    for (const path of ["/orders/884120/receipt?email=ann@example.com#top", "/users/ann%40example.com/", "/u/ann@example.com", "/t/3f2a9c0d1e7b4a66"]) {
      expect((await countEvents(projectId, { path, events: [{ event: "banner_shown" }] })).status).toBe(204);
    }
    const paths = (await rowsOf("analytics_pages", projectId)).map((r) => r.path).sort();
    expect(paths).toEqual(["/orders/:id/receipt", "/t/:id", "/u/:id", "/users/:id"]);
  });

  it("stores nothing that identifies the visitor: no such column, and no stored value holds what the request carried", async () => {
    const { projectId } = await widgetTenant();
    const visit = await bootstrap(projectId);
    const { identityId, visitorKey, access_token } = visit.body.token!;
    const address = "203.0.113.77";
    const reply = await countEvents(
      projectId,
      { path: "/welcome", events: [{ event: "banner_shown" }, { event: "accept_all", granted: [] }] },
      { "cf-connecting-ip": address, cookie: `session=${visitorKey}`, authorization: `Bearer ${access_token}`, "user-agent": iphone },
    );
    expect(reply.status).toBe(204);

    const allowed = {
      analytics_counts: ["project_id", "day", "event", "purpose_id", "regime", "language", "device", "variant", "count"],
      analytics_pages: ["project_id", "day", "event", "path", "count"],
    };
    for (const [table, columns] of Object.entries(allowed)) {
      const info = await env.DB.prepare(`SELECT name FROM pragma_table_info('${table}')`).all<{ name: string }>();
      expect(info.results.map((c) => c.name).sort(), table).toEqual([...columns].sort());
    }
    const stored = JSON.stringify([...(await rowsOf("analytics_counts", projectId)), ...(await rowsOf("analytics_pages", projectId))]);
    expect(stored).toContain("/welcome");
    for (const secret of [identityId, visitorKey, access_token, address, iphone, "iPhone", siteOrigin]) expect(stored).not.toContain(secret);
  });

  it("refuses reports from an origin no client of the project registered, and without an origin, storing nothing", async () => {
    const { projectId } = await widgetTenant();
    const report = { events: [{ event: "banner_shown" }] };
    expectProblem(await countEvents(projectId, report, { origin: "https://elsewhere.example" }), 403, "origin_not_allowed");
    expectProblem(await countEvents(projectId, report, { origin: "null" }), 403, "origin_not_allowed");
    // Another project's origin is not this one's.
    expectProblem(await countEvents(projectId, report, { origin: siteOrigin.replace("shop", "other") }), 403, "origin_not_allowed");
    expectProblem(await countEvents("prj_01JDNOTAPROJECT0000000000", report), 403, "origin_not_allowed");
    expect(await rowsOf("analytics_counts", projectId)).toEqual([]);
  });

  it("answers malformed reports 400 with a problem and drops them", async () => {
    const { projectId } = await widgetTenant();
    const malformed: (Report | string)[] = [
      "{not json",
      "",
      "[]",
      { events: [] },
      { events: [{ event: "clicked_everything" }] },
      { events: Array.from({ length: 11 }, () => ({ event: "banner_shown" })) },
      { regime: "lawless", events: [{ event: "banner_shown" }] },
      { language: "en'; DROP TABLE", events: [{ event: "banner_shown" }] },
      { path: "", events: [{ event: "banner_shown" }] },
      { variant: "Has Spaces", events: [{ event: "banner_shown" }] },
      { events: [{ event: "accept_all", granted: ["not-a-purpose"] }] },
      JSON.stringify({ regime: "opt-in", language: "en", path: "/", events: [{ event: "banner_shown" }], visitor: "idn_x" }),
    ];
    for (const report of malformed) {
      const reply = await countEvents(projectId, report);
      expect(reply.status, JSON.stringify(report)).toBe(400);
      expect(reply.headers.get("content-type")).toBe("application/problem+json");
    }
    expect((await countEvents(projectId, "x".repeat(9000))).status).toBe(413);
    expect(await rowsOf("analytics_counts", projectId)).toEqual([]);
    expect(await rowsOf("analytics_pages", projectId)).toEqual([]);
  });

  it("leaves no count behind when the project is deleted", async () => {
    const { projectId } = await widgetTenant();
    expect((await countEvents(projectId, { events: [{ event: "banner_shown" }] })).status).toBe(204);
    expect((await admin("DELETE", `/projects/${projectId}`)).status).toBe(204);
    expect(await rowsOf("analytics_counts", projectId)).toEqual([]);
    expect(await rowsOf("analytics_pages", projectId)).toEqual([]);
  });
});
