// A project's switch for counting the banner's interactions (docs/analytics.md#turning-counting-off): on by default,
// an editor or owner turns it off, a viewer reads it; off, the bootstrap names no `analytics` part and the counting
// endpoint refuses a page's beacon with a stable problem, storing nothing.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { countEvents } from "./analytics-helpers";
import { invited, owner } from "./accounts-helpers";
import { bootstrap, widgetTenant, type WidgetTenant } from "./bootstrap-fixture";
import { admin, expectProblem, ok } from "./helpers";

const settingsPath = (projectId: string) => `/admin/v1/projects/${projectId}/analytics/settings`;

describe("who reads and changes the switch", () => {
  let boss: Awaited<ReturnType<typeof owner>>;
  let projectId: string;
  beforeAll(async () => {
    boss = await owner();
    projectId = (await boss.call("POST", "/admin/v1/projects", { name: "Shop", controller: { name: "Shop AB" } })).body.projectId;
  });

  it("on until changed; an editor turns it off and the owner on again, a viewer only reads it", async () => {
    expect(ok(await boss.call("GET", settingsPath(projectId)))).toEqual({ enabled: true });
    const editor = await invited(boss, "analytics-editor@example.com", "editor");
    const viewer = await invited(boss, "analytics-viewer@example.com", "viewer");
    expect(ok(await editor.call("PUT", settingsPath(projectId), { enabled: false }))).toEqual({ enabled: false });
    expect(ok(await viewer.call("GET", settingsPath(projectId)))).toEqual({ enabled: false });
    expectProblem(await viewer.call("PUT", settingsPath(projectId), { enabled: true }), 403, "insufficient_scope");
    expect(ok(await viewer.call("GET", settingsPath(projectId)))).toEqual({ enabled: false });
    expect(ok(await boss.call("PUT", settingsPath(projectId), { enabled: true }))).toEqual({ enabled: true });
  });

  it("answers a malformed switch 400 and another project's 404", async () => {
    for (const body of [{}, { enabled: "no" }, { enabled: false, extra: 1 }]) {
      expectProblem(await boss.call("PUT", settingsPath(projectId), body), 400, "validation_failed");
    }
    expectProblem(await boss.call("GET", settingsPath("prj_01JDNOTAPROJECT0000000000000")), 404, "not_found");
    expectProblem(await admin("PUT", "/projects/prj_01JDNOTAPROJECT0000000000000/analytics/settings", { enabled: false }), 404, "not_found");
  });
});

describe("counting turned off", () => {
  let tenant: WidgetTenant;
  beforeAll(async () => {
    tenant = await widgetTenant();
  });

  const report = { events: [{ event: "banner_shown" }, { event: "reject_all", refused: ["pur_01JDAAAAAAAAAAAAAAAAAAAAAA"] }] };
  const stored = async () =>
    (await env.DB.prepare("SELECT (SELECT count(*) FROM analytics_counts WHERE project_id = ?1) + (SELECT count(*) FROM analytics_pages WHERE project_id = ?1) AS n")
      .bind(tenant.projectId)
      .first<{ n: number }>())!.n;

  it("the bootstrap names no analytics part and the beacon is refused, nothing stored; on again, both as before", async () => {
    expect(ok(await bootstrap(tenant.projectId, { body: { languages: ["en"] } })).features).toContain("analytics");
    expect((await countEvents(tenant.projectId, report)).status).toBe(204);
    const before = await stored();
    expect(before).toBeGreaterThan(0);

    ok(await admin("PUT", `/projects/${tenant.projectId}/analytics/settings`, { enabled: false }));
    expect(ok(await bootstrap(tenant.projectId, { body: { languages: ["en"] } })).features).not.toContain("analytics");
    expectProblem(await countEvents(tenant.projectId, report), 403, "analytics_off");
    expect(await stored()).toBe(before);
    // A malformed beacon is still 400: the report is read before the switch.
    expectProblem(await countEvents(tenant.projectId, { events: [{ event: "clicked_somewhere" }] }), 400, "validation_failed");

    ok(await admin("PUT", `/projects/${tenant.projectId}/analytics/settings`, { enabled: true }));
    expect(ok(await bootstrap(tenant.projectId, { body: { languages: ["en"] } })).features).toContain("analytics");
    expect((await countEvents(tenant.projectId, report)).status).toBe(204);
    expect(await stored()).toBe(before);
    const rows = await env.DB.prepare("SELECT sum(count) AS n FROM analytics_pages WHERE project_id = ? AND event = 'banner_shown'").bind(tenant.projectId).first<{ n: number }>();
    expect(rows!.n).toBe(2);
  });

  it("an experiment cannot start while counting is off, and a running one serves no variant once it is turned off", async () => {
    const { projectId } = await widgetTenant();
    const fair = { rejectAll: "first-layer", accept: "primary", reject: "primary" };
    const variants = [{ name: "control", layout: fair }, { name: "plain", layout: { ...fair, accept: "link", reject: "link" } }];
    const experiment = ok(await admin("POST", `/projects/${projectId}/experiments`, { name: "Quieter buttons", variants }), 201);
    ok(await admin("PUT", `/projects/${projectId}/analytics/settings`, { enabled: false }));
    expectProblem(await admin("POST", `/projects/${projectId}/experiments/${experiment.experimentId}/start`), 409, "analytics_off");
    ok(await admin("PUT", `/projects/${projectId}/analytics/settings`, { enabled: true }));
    ok(await admin("POST", `/projects/${projectId}/experiments/${experiment.experimentId}/start`));
    expect(ok(await bootstrap(projectId, { body: { languages: ["en"] } }))).toHaveProperty("variant");
    // Turned off mid-experiment: nothing would count or name the variant, so every visitor sees the project's own banner.
    ok(await admin("PUT", `/projects/${projectId}/analytics/settings`, { enabled: false }));
    const answer = ok(await bootstrap(projectId, { body: { languages: ["en"] } }));
    expect(answer).not.toHaveProperty("variant");
    expect(answer).not.toHaveProperty("buttons");
  });
});
