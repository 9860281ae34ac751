import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { app } from "../../worker/app";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env";
import { newId } from "../../worker/lib/ids";
import { queueDueScans, runQueuedScans, type Crawl } from "../../worker/scans/schedule";
import type { Schemas } from "../../shared/api/operations";
import { admin, call, expectProblem, newClient, newTenant, ok, origin, problemOf, subscribed, tokenFor, type Reply } from "./helpers";
import { firstReport, secondReport, shopOrigin } from "./scan-reports";

/** The 201 of an uploaded report (the route's 202 is for a queued scan). */
const uploaded = (reply: Reply<unknown>) => ok(reply, 201) as Schemas["UploadedScan"];

const names = (items: { name?: string; host?: string; item?: string }[]) => items.map((i) => i.name ?? i.host ?? i.item).sort();

describe("uploaded scan reports", () => {
  it("stores a report, lists it with counts only, and reads it back whole", async () => {
    const t = await newTenant();
    const { visitorsRemoved, ...created } = uploaded(await t.api("POST", "/scans", { report: firstReport }));
    expect(visitorsRemoved).toBe(0);
    expect(created.scanId).toMatch(/^scn_[0-9A-Z]{26}$/);
    expect(created).toMatchObject({
      projectId: t.projectId,
      origin: shopOrigin,
      trigger: "api",
      status: "completed",
      problem: null,
      counts: { pages: 3, pageErrors: 1, cookies: 3, storage: 2, thirdPartyHosts: 1, violations: 3, newItems: 6, newViolations: 3 },
    });
    expect(created.completed).toEqual(expect.any(String));

    const list = ok(await t.api("GET", "/scans"));
    expect(list.items).toEqual([created]);
    expect(list.items[0]).not.toHaveProperty("report");

    const one = ok(await t.api("GET", `/scans/${created.scanId}`));
    expect(one.report).toEqual(firstReport);
    // The first scan of an origin is compared with nothing: everything in it is new.
    const diff = one.diff!;
    expect(diff.previousScanId).toBeNull();
    expect(names(diff.new.cookies)).toEqual(["_ga", "_ga_ABC123", "session"]);
    expect(diff.gone).toEqual({ cookies: [], storage: [], thirdPartyHosts: [], violations: [] });
  });

  it("diffs a scan against the previous completed scan of the same origin, and lists newest first", async () => {
    const t = await newTenant();
    const first = ok(await t.api("POST", "/scans", { report: firstReport }), 201);
    // Another origin's scan in between is not the previous scan of the shop.
    const blog = ok(await t.api("POST", "/scans", { report: { ...firstReport, origin: "https://blog.example", cookies: [] } }), 201);
    const second = ok(await t.api("POST", "/scans", { report: secondReport }), 201);
    expect(second.counts).toMatchObject({ newItems: 2, newViolations: 2, violations: 5 });

    const diff = ok(await t.api("GET", `/scans/${second.scanId}`)).diff!;
    expect(diff.previousScanId).toBe(first.scanId);
    expect(names(diff.new.cookies)).toEqual(["_fbp"]);
    expect(diff.new.storage).toEqual([]);
    expect(names(diff.new.thirdPartyHosts)).toEqual(["connect.facebook.net"]);
    expect(diff.new.violations.map((v) => `${v.kind} ${v.item}`).sort()).toEqual(["after-reject connect.facebook.net", "before-consent _fbp"]);
    expect(names(diff.gone.storage)).toEqual(["_hjSessionUser_1"]);
    expect([diff.gone.cookies, diff.gone.thirdPartyHosts, diff.gone.violations]).toEqual([[], [], []]);

    const list = ok(await t.api("GET", "/scans"));
    expect(list.items.map((s) => s.scanId)).toEqual([second.scanId, blog.scanId, first.scanId]);
  });

  it("answers 404 for another project's scan, however it is asked for", async () => {
    const home = await newTenant();
    const away = await newTenant();
    const { scanId } = ok(await home.api("POST", "/scans", { report: firstReport }), 201);
    expectProblem(await away.api("GET", `/scans/${scanId}`), 404, "not_found");
    expectProblem(await call("GET", `/privacy/v2/projects/${home.projectId}/scans/${scanId}`, { token: away.token }), 404, "not_found");
    expectProblem(await home.api("GET", "/scans/scn_01JD7W2H8Q5V3N6X9B1C4E7F2G"), 404, "not_found");
    expect(ok(await away.api("GET", "/scans")).items).toEqual([]);
  });

  it("refuses malformed reports and bodies with 400 and the offending fields", async () => {
    const t = await newTenant();
    const { cookies: _, ...withoutCookies } = firstReport;
    const cases: [unknown, string][] = [
      [{ report: withoutCookies }, "report.cookies"],
      [{ report: { ...firstReport, version: 2 } }, "report.version"],
      [{ report: { ...firstReport, origin: "not a url" } }, "report.origin"],
      [{ report: { ...firstReport, origin: "ftp://shop.example" } }, "report.origin"],
      [{ report: { ...firstReport, cookies: [{ ...firstReport.cookies[0], category: "tracking" }] } }, "report.cookies.0.category"],
      [{ report: firstReport, origin: shopOrigin }, ""],
      [{}, ""],
      [{ report: firstReport, extra: true }, "extra"],
    ];
    for (const [body, path] of cases) {
      const reply = await t.api("POST", "/scans", body);
      expectProblem(reply, 400, "validation_failed");
      if (path) expect(problemOf(reply).errors?.map((e) => e.path), JSON.stringify(body).slice(0, 80)).toContain(path);
    }
    expect(ok(await t.api("GET", "/scans")).items).toEqual([]);
  });

  it("takes reports past the API's usual 1 MB up to the route's own limit, and refuses larger ones with 413", async () => {
    const t = await newTenant();
    const page = (i: number) => ({ url: `${shopOrigin}/products/${i}-${"x".repeat(60)}`, status: "ok" as const, error: null });
    const large = { ...firstReport, pages: Array.from({ length: 14_000 }, (_, i) => page(i)) };
    expect(JSON.stringify({ report: large }).length).toBeGreaterThan(1_048_576);
    expect(ok(await t.api("POST", "/scans", { report: large }), 201).counts?.pages).toBe(14_000);
    const huge = { ...firstReport, pages: Array.from({ length: 30_000 }, (_, i) => page(i)) };
    expectProblem(await t.api("POST", "/scans", { report: huge }), 413, "payload_too_large");
  });

  it("bounds what is stored, not what is received: a report whose numbers write out past D1's value limit is 413", async () => {
    const t = await newTenant();
    // `1e20` takes 4 bytes in the body and 21 as stored: the body is within its limit, the stored report is not.
    const cookie = (i: number) => ({ ...firstReport.cookies[0], name: `c${i}`, pages: [], expires: 1e20 });
    const report = { ...firstReport, cookies: Array.from({ length: 9_000 }, (_, i) => cookie(i)) };
    const body = JSON.stringify({ report }).replaceAll(":100000000000000000000", ":1e20");
    expect(body.length).toBeLessThan(1_900_000);
    expect(JSON.stringify(report).length).toBeGreaterThan(2_000_000);
    const refused = await call("POST", `/privacy/v2/projects/${t.projectId}/scans`, { token: t.token, rawBody: body, headers: { "content-type": "application/json" } });
    expectProblem(refused, 413, "report_too_large");
    expect(problemOf(refused)).toMatchObject({ limitBytes: 1_950_000 });
    expect(ok(await t.api("GET", "/scans")).items).toEqual([]);
  });

  it("writes scan.completed in the outbox with the scan's new items and violations", async () => {
    const t = await newTenant();
    await subscribed(t, ["scan.completed"]);
    ok(await t.api("POST", "/scans", { report: firstReport }), 201);
    const second = ok(await t.api("POST", "/scans", { report: secondReport }), 201);
    const rows = await env.DB.prepare("SELECT type, data FROM events WHERE project_id = ? ORDER BY id").bind(t.projectId).all<{ type: string; data: string }>();
    expect(rows.results.map((r) => r.type)).toEqual(["scan.completed", "scan.completed"]);
    expect(JSON.parse(rows.results[1].data)).toEqual({
      scanId: second.scanId,
      origin: shopOrigin,
      trigger: "api",
      completed: second.completed,
      counts: second.counts,
    });
  });
});

describe("essential marks", () => {
  it("keeps a cookie the owner marked essential, with the reason, across every report stored afterwards", async () => {
    const t = await newTenant();
    // Before the mark, the shop's _ga is flagged (as the scan found it).
    const before = ok(await t.api("POST", "/scans", { report: firstReport }), 201);
    expect(before.counts?.violations).toBe(3);
    const mark = ok(await t.api("PUT", "/scan-essentials/_ga*", { reason: "Our own first-party measurement, exempt under our DPA's guidance." }));
    expect(mark).toEqual({ name: "_ga*", reason: "Our own first-party measurement, exempt under our DPA's guidance.", created: expect.any(String) });
    for (const report of [firstReport, secondReport]) {
      const { scanId, counts } = ok(await t.api("POST", "/scans", { report }), 201);
      const stored = ok(await t.api("GET", `/scans/${scanId}`)).report!;
      for (const name of ["_ga", "_ga_ABC123"]) {
        expect(stored.cookies.find((c) => c.name === name)).toMatchObject({ category: "necessary", source: `marked essential by the project: ${mark.reason}` });
      }
      expect(stored.violations.map((v) => v.item)).not.toEqual(expect.arrayContaining(["_ga"]));
      expect(stored.violations.some((v) => v.item.startsWith("_ga"))).toBe(false);
      // Requests are never marked: the tag manager's host stays flagged.
      expect(stored.violations.map((v) => v.item)).toContain("www.googletagmanager.com");
      expect(counts?.violations).toBe(stored.violations.length);
    }
    // The report stored before the mark is not rewritten.
    expect(ok(await t.api("GET", `/scans/${before.scanId}`)).report!.violations).toHaveLength(3);
    expect(ok(await t.api("GET", "/scan-essentials")).items.map((m) => m.name)).toEqual(["_ga*"]);
    // Marking again replaces the reason; unmarking takes it back.
    expect(ok(await t.api("PUT", "/scan-essentials/_ga*", { reason: "Changed." })).reason).toBe("Changed.");
    expect((await t.api("DELETE", "/scan-essentials/_ga*")).status).toBe(204);
    expect(ok(await t.api("GET", "/scan-essentials")).items).toEqual([]);
    expectProblem(await t.api("DELETE", "/scan-essentials/_ga*"), 404, "not_found");
  });

  it("is the project's own: another project neither sees nor applies it, and bad marks are 400", async () => {
    const home = await newTenant();
    const away = await newTenant();
    ok(await home.api("PUT", "/scan-essentials/session", { reason: "The shop's session." }));
    expect(ok(await away.api("GET", "/scan-essentials")).items).toEqual([]);
    expectProblem(await call("GET", `/privacy/v2/projects/${home.projectId}/scan-essentials`, { token: away.token }), 404, "not_found");
    const { scanId } = ok(await away.api("POST", "/scans", { report: { ...firstReport, cookies: [{ ...firstReport.cookies[1], name: "session", category: "unclassified" }] } }), 201);
    expect(ok(await away.api("GET", `/scans/${scanId}`)).report!.cookies[0]).toMatchObject({ name: "session", category: "unclassified" });
    for (const body of [{}, { reason: "" }, { reason: "   " }, { reason: "x".repeat(501) }, { reason: "ok", extra: 1 }]) {
      expectProblem(await home.api("PUT", "/scan-essentials/PHPSESSID", body), 400, "validation_failed");
    }
    expectProblem(await home.api("PUT", `/scan-essentials/${encodeURIComponent("a b")}`, { reason: "ok" }), 400, "validation_failed");
    expectProblem(await home.api("PUT", `/scan-essentials/${"x".repeat(257)}`, { reason: "ok" }), 400, "validation_failed");
  });
});

describe("remote scans", () => {
  it("answers 503 browser_unavailable with the CLI command when the Worker has no Browser Rendering binding, and stores nothing", async () => {
    const t = await newTenant();
    await newClient(t.projectId, "web", [shopOrigin]);
    const reply = await t.api("POST", "/scans", { origin: shopOrigin });
    expectProblem(reply, 503, "browser_unavailable");
    const problem = problemOf(reply);
    expect(problem.detail).toContain(`npm run scan -- ${shopOrigin} --project ${t.projectId}`);
    expect(problem.command).toBe(`npm run scan -- ${shopOrigin} --project ${t.projectId}`);
    expect(ok(await t.api("GET", "/scans")).items).toEqual([]);
  });

  it("queues a scan of a registered origin where Browser Rendering is bound (202), for the cron to run", async () => {
    const t = await newTenant();
    await newClient(t.projectId, "web", [shopOrigin]);
    // The Worker as deployed with the scanner's Worker bound (SCANNER): the app with that binding present.
    const response = await app.fetch(
      new Request(`${origin}/privacy/v2/projects/${t.projectId}/scans`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json" },
        body: JSON.stringify({ origin: `${shopOrigin}/any/page` }),
      }),
      { ...env, SCANNER: {} },
      createExecutionContext(),
    );
    expect(response.status, await response.clone().text()).toBe(202);
    const queued = (await response.json()) as { scanId: string };
    expect(queued).toMatchObject({ origin: shopOrigin, trigger: "api", status: "queued", counts: null, completed: null });
    expect(ok(await t.api("GET", "/scans")).items.map((s) => [s.scanId, s.status])).toEqual([[queued.scanId, "queued"]]);
    expect(ok(await t.api("GET", `/scans/${queued.scanId}`))).not.toHaveProperty("report");
  });

  it("scans only origins registered for the project and never private or loopback addresses", async () => {
    const t = await newTenant();
    await newClient(t.projectId, "web", ["https://registered.example", "http://localhost:5173", "https://10.0.0.7"]);
    expectProblem(await t.api("POST", "/scans", { origin: "https://elsewhere.example" }), 400, "origin_not_registered");
    expectProblem(await t.api("POST", "/scans", { origin: "http://localhost:5173" }), 400, "origin_not_allowed");
    expectProblem(await t.api("POST", "/scans", { origin: "https://10.0.0.7" }), 400, "origin_not_allowed");
    expectProblem(await t.api("POST", "/scans", { origin: "javascript:alert(1)" }), 400, "validation_failed");
    // Another project's registered origin is not this project's.
    const other = await newTenant();
    expectProblem(await other.api("POST", "/scans", { origin: "https://registered.example" }), 400, "origin_not_registered");
  });
});

describe("who may scan", () => {
  it("takes backend tokens holding the scans scopes; public clients and narrower tokens are refused", async () => {
    const t = await newTenant();
    const web = await newClient(t.projectId, "web", [shopOrigin]);
    const webToken = await tokenFor(web.clientId, web.clientSecret);
    const path = `/privacy/v2/projects/${t.projectId}/scans`;
    expectProblem(await call("GET", path, { token: webToken }), 403, "insufficient_scope");
    expectProblem(await call("POST", path, { token: webToken, body: { report: firstReport } }), 403, "insufficient_scope");
    const reader = await newClient(t.projectId, "backend");
    const narrowed = ok(
      await call("PUT", `/admin/v1/projects/${t.projectId}/clients/${reader.clientId}`, {
        token: "test-admin-token",
        body: { scopes: ["scans:read"] },
      }),
    );
    expect(narrowed.scopes).toEqual(["scans:read"]);
    const readerToken = await tokenFor(reader.clientId, reader.clientSecret);
    expect(ok(await call("GET", path, { token: readerToken }))).toEqual({ items: [], next: null });
    expectProblem(await call("POST", path, { token: readerToken, body: { report: firstReport } }), 403, "insufficient_scope");
    const passes = `/privacy/v2/projects/${t.projectId}/scan-passes`;
    expectProblem(await call("POST", passes, { token: webToken }), 403, "insufficient_scope");
    expectProblem(await call("POST", passes, { token: readerToken }), 403, "insufficient_scope");
  });
});

/** A first visit from the shop's page, as the widget makes one, carrying `pass` when given: the new identity's id. */
const visitorOf = async (projectId: string, pass?: { header: string; value: string }) =>
  ok(await call("POST", `/browser/v1/projects/${projectId}/visitor-tokens`, { body: {}, headers: { origin: shopOrigin, ...(pass ? { [pass.header]: pass.value } : {}) } }), 201)
    .identityId;

/** Whether each identity of `ids` still exists in the tenant's project. */
const existing = async (t: { api: (method: "GET", path: string) => Promise<{ status: number }> }, ids: string[]) =>
  Promise.all(ids.map(async (id) => (await t.api("GET", `/identities/${id}`)).status === 200));

describe("a scan of a site that runs Assent", () => {
  it("deletes, with the uploaded report, exactly the identities made under its pass", async () => {
    const t = await newTenant();
    const other = await newTenant();
    await newClient(t.projectId, "web", [shopOrigin]);
    await newClient(other.projectId, "web", [shopOrigin]);
    await subscribed(t, ["identity.deleted"]);
    const issued = ok(await t.api("POST", "/scan-passes"), 201);
    expect(issued).toMatchObject({ passId: expect.stringMatching(/^spa_/), header: "Assent-Scan-Pass", expiresIn: 3600 });
    const pass = { header: issued.header, value: issued.pass };
    const made = [await visitorOf(t.projectId, pass), await visitorOf(t.projectId, pass)];
    // A real visitor meanwhile, the pass shown to another project, a forged pass, and a customer a backend made.
    const [head, body] = issued.pass.split(".");
    const kept = [
      await visitorOf(t.projectId),
      await visitorOf(t.projectId, { header: pass.header, value: `${head}.${body}.${"A".repeat(86)}` }),
      ok(await t.api("POST", "/identities", { referenceId: "customer-7", aliases: [{ type: "urn:svc:email", identifier: "seven@shop.example" }] }), 201).identityId,
    ];
    const foreign = await visitorOf(other.projectId, pass);

    expectProblem(await t.api("POST", "/scans", { origin: shopOrigin, passId: issued.passId }), 400, "validation_failed");
    const stored = uploaded(await t.api("POST", "/scans", { report: firstReport, passId: issued.passId }));
    expect(stored.visitorsRemoved).toBe(2);
    expect(await existing(t, made)).toEqual([false, false]);
    expect(await existing(t, kept)).toEqual([true, true, true]);
    expect(await existing(other, [foreign])).toEqual([true]);
    const deleted = await env.DB.prepare("SELECT data FROM events WHERE project_id = ? AND type = 'identity.deleted'").bind(t.projectId).all<{ data: string }>();
    expect(deleted.results.map((e) => JSON.parse(e.data).identityId).sort()).toEqual([...made].sort());
    // Another project's pass id removes nothing here; an upload without one, nothing at all.
    const theirs = ok(await other.api("POST", "/scan-passes"), 201);
    await visitorOf(other.projectId, { header: theirs.header, value: theirs.pass });
    expect(uploaded(await t.api("POST", "/scans", { report: firstReport, passId: theirs.passId })).visitorsRemoved).toBe(0);
    expect(uploaded(await t.api("POST", "/scans", { report: firstReport })).visitorsRemoved).toBe(0);
  });
});

describe("the scan schedule", () => {
  it("is weekly until set, and takes off, daily, weekly or monthly", async () => {
    const t = await newTenant();
    expect(ok(await t.api("GET", "/scan-schedule"))).toEqual({ schedule: "weekly" });
    expect(ok(await t.api("PUT", "/scan-schedule", { schedule: "daily" }))).toEqual({ schedule: "daily" });
    expect(ok(await t.api("GET", "/scan-schedule"))).toEqual({ schedule: "daily" });
    expectProblem(await t.api("PUT", "/scan-schedule", { schedule: "hourly" }), 400, "validation_failed");
  });

  it("queues a scan of each registered public origin that is due, only where Browser Rendering is bound", async () => {
    const asOf = Date.parse("2030-01-15T12:00:00.000Z");
    const weekly = await newTenant();
    await newClient(weekly.projectId, "web", ["https://weekly.example", "https://10.0.0.8"]);
    const off = await newTenant();
    await newClient(off.projectId, "web", ["https://off.example"]);
    ok(await off.api("PUT", "/scan-schedule", { schedule: "off" }));
    const daily = await newTenant();
    await newClient(daily.projectId, "web", ["https://daily.example"]);
    ok(await daily.api("PUT", "/scan-schedule", { schedule: "daily" }));

    const queued = (projectId: string) =>
      env.DB.prepare("SELECT origin, trigger, status FROM scans WHERE project_id = ? ORDER BY id").bind(projectId).all().then((r) => r.results);

    // Without the binding nothing could run a scan, so none is queued.
    await queueDueScans(env as unknown as Env, asOf);
    expect(await queued(weekly.projectId)).toEqual([]);

    const withBrowser = { ...(env as unknown as Env), SCANNER: {} as Env["SCANNER"] };
    await queueDueScans(withBrowser, asOf);
    expect(await queued(weekly.projectId)).toEqual([{ origin: "https://weekly.example", trigger: "schedule", status: "queued" }]);
    expect(await queued(off.projectId)).toEqual([]);
    expect(await queued(daily.projectId)).toEqual([{ origin: "https://daily.example", trigger: "schedule", status: "queued" }]);

    // A day later the daily origin is due again, the weekly one not yet.
    await queueDueScans(withBrowser, asOf + 25 * 3600_000);
    expect(await queued(weekly.projectId)).toHaveLength(1);
    expect(await queued(daily.projectId)).toHaveLength(2);
  });
});

describe("scans the Worker runs", () => {
  const withBrowser = () => ({ ...(env as unknown as Env), SCANNER: {} as Env["SCANNER"] });
  /** Stands in for Browser Rendering: the report a crawl of the origin gives, or its failure. */
  const crawlGiving = (report: typeof secondReport | Error): Crawl => async (_env, origin) => {
    if (report instanceof Error) throw report;
    return { ...report, origin };
  };
  /** Runs until no scan is queued: earlier tests of the file queued scans of their own projects. */
  const runAll = async (crawl: Crawl) => {
    let ran = 0;
    for (let pass = 0; pass < 20; pass++) {
      const now = await runQueuedScans(withBrowser(), Date.now(), crawl);
      ran += now;
      if (now === 0) break;
    }
    return ran;
  };
  const scanRow = (id: string) => env.DB.prepare("SELECT status, problem, started, completed, counts FROM scans WHERE id = ?").bind(id).first<Record<string, string | null>>();

  it("runs a queued scan, completes it with its report, diff and scan.completed in one batch", async () => {
    const t = await newTenant();
    await subscribed(t, ["scan.completed"]);
    await newClient(t.projectId, "web", [shopOrigin]);
    const first = ok(await t.api("POST", "/scans", { report: firstReport }), 201);
    // Queued as POST {origin} queues it on a deployment with Browser Rendering (the test's Worker has none).
    const queued = newId("scn");
    await env.DB.prepare("INSERT INTO scans (id, project_id, origin, trigger, status, created) VALUES (?, ?, ?, 'portal', 'queued', ?)")
      .bind(queued, t.projectId, shopOrigin, new Date().toISOString())
      .run();
    expect(await runQueuedScans(env as unknown as Env, Date.now(), crawlGiving(secondReport))).toBe(0);
    expect((await scanRow(queued))?.status).toBe("queued");

    expect(await runAll(crawlGiving(secondReport))).toBeGreaterThanOrEqual(1);
    const scan = ok(await t.api("GET", `/scans/${queued}`));
    expect(scan).toMatchObject({ status: "completed", trigger: "portal", problem: null, counts: { newItems: 2, newViolations: 2 } });
    expect(scan.started).toEqual(expect.any(String));
    expect(scan.diff?.previousScanId).toBe(first.scanId);
    const events = await env.DB.prepare("SELECT data FROM events WHERE project_id = ? AND type = 'scan.completed' ORDER BY id").bind(t.projectId).all<{ data: string }>();
    expect(events.results.map((e) => JSON.parse(e.data).scanId)).toEqual([first.scanId, queued]);
  });

  it("fails a scan whose crawl fails, with the problem, and no event", async () => {
    const t = await newTenant();
    await subscribed(t, ["scan.completed"]);
    await newClient(t.projectId, "web", [shopOrigin]);
    const queued = newId("scn");
    await env.DB.prepare("INSERT INTO scans (id, project_id, origin, trigger, status, created) VALUES (?, ?, ?, 'schedule', 'queued', ?)")
      .bind(queued, t.projectId, shopOrigin, new Date().toISOString())
      .run();
    await runAll(crawlGiving(new Error("net::ERR_NAME_NOT_RESOLVED")));
    const scan = ok(await t.api("GET", `/scans/${queued}`));
    expect(scan).toMatchObject({ status: "failed", problem: { code: "scan_failed", detail: "net::ERR_NAME_NOT_RESOLVED" }, counts: null });
    expect(scan).not.toHaveProperty("report");
    const events = await env.DB.prepare("SELECT count(*) AS n FROM events WHERE project_id = ?").bind(t.projectId).first<{ n: number }>();
    expect(events?.n).toBe(0);
  });

  /** Queues a scan of the shop for `projectId`, as the cron or the portal would. */
  const queueShop = async (projectId: string) => {
    const id = newId("scn");
    await env.DB.prepare("INSERT INTO scans (id, project_id, origin, trigger, status, created) VALUES (?, ?, ?, 'schedule', 'queued', ?)")
      .bind(id, projectId, shopOrigin, new Date().toISOString())
      .run();
    return id;
  };
  /** A crawl that records what it was asked to crawl, with which registered origins. */
  const recordingCrawl = () => {
    const crawled: { origin: string; registeredOrigins: string[] }[] = [];
    const crawl: Crawl = async (_env, origin, options) => {
      crawled.push({ origin, registeredOrigins: options.registeredOrigins });
      return { ...secondReport, origin };
    };
    return { crawled, crawl };
  };

  it("hands the crawl the project's registered origins, which bound the pages it follows", async () => {
    const t = await newTenant();
    await newClient(t.projectId, "web", [shopOrigin, "https://blog.shop.example"]);
    const { crawled, crawl } = recordingCrawl();
    const queued = await queueShop(t.projectId);
    await runAll(crawl);
    expect((await scanRow(queued))?.status).toBe("completed");
    expect(crawled.filter((c) => c.origin === shopOrigin).at(-1)?.registeredOrigins).toEqual([shopOrigin, "https://blog.shop.example"]);
  });

  it("fails a queued scan whose origin the project no longer lists, without crawling it", async () => {
    const t = await newTenant();
    const client = await newClient(t.projectId, "web", [shopOrigin]);
    const queued = await queueShop(t.projectId);
    ok(await admin("PUT", `/projects/${t.projectId}/clients/${client.clientId}`, { allowedOrigins: ["https://other.example"] }));
    const { crawled, crawl } = recordingCrawl();
    await runAll(crawl);
    expect(crawled.map((c) => c.origin)).not.toContain(shopOrigin);
    expect(ok(await t.api("GET", `/scans/${queued}`))).toMatchObject({ status: "failed", problem: { code: "origin_not_registered" }, counts: null });
  });

  it("fails a scan left running by an invocation that ended", async () => {
    const t = await newTenant();
    const stuck = newId("scn");
    const longAgo = new Date(Date.now() - 3600_000).toISOString();
    await env.DB.prepare("INSERT INTO scans (id, project_id, origin, trigger, status, created, started) VALUES (?, ?, ?, 'schedule', 'running', ?, ?)")
      .bind(stuck, t.projectId, shopOrigin, longAgo, longAgo)
      .run();
    await runAll(crawlGiving(secondReport));
    expect(ok(await t.api("GET", `/scans/${stuck}`))).toMatchObject({ status: "failed", problem: { code: "timeout" } });
  });

  it("carries a pass of its own and deletes the identities made under it, completed or failed", async () => {
    const t = await newTenant();
    await newClient(t.projectId, "web", [shopOrigin]);
    const earlier = await visitorOf(t.projectId);
    for (const outcome of ["completed", "failed"] as const) {
      const made: string[] = [];
      const queued = await queueShop(t.projectId);
      await runAll(async (_env, origin, options) => {
        // What the scan's browser sends to this service: the Worker's own origin, and the pass in its header.
        expect(options.pass).toMatchObject({ service: new URL(env.ISSUER!).origin, header: "Assent-Scan-Pass" });
        made.push(await visitorOf(t.projectId, options.pass), await visitorOf(t.projectId, options.pass));
        if (outcome === "failed") throw new Error("net::ERR_CONNECTION_RESET");
        return { ...secondReport, origin };
      });
      expect((await scanRow(queued))?.status).toBe(outcome);
      expect(await existing(t, made)).toEqual([false, false]);
    }
    expect(await existing(t, [earlier])).toEqual([true]);
  });
});
