import { beforeAll, describe, expect, it } from "vitest";
import { countEvents, iphone, type Report } from "./analytics-helpers";
import { widgetTenant, type WidgetTenant } from "./bootstrap-fixture";
import { admin, call, expectProblem, ok } from "./helpers";

const today = () => new Date().toISOString().slice(0, 10);

async function send(projectId: string, times: number, report: Report, headers: Record<string, string> = {}) {
  const replies = await Promise.all(Array.from({ length: times }, () => countEvents(projectId, report, headers)));
  expect(replies.map((r) => r.status)).toEqual(replies.map(() => 204));
}

describe("analytics reports", () => {
  let tenant: WidgetTenant;
  beforeAll(async () => {
    tenant = await widgetTenant();
    const { projectId, marketing, analytics } = tenant;
    await send(projectId, 30, { path: "/shop", events: [{ event: "banner_shown" }, { event: "accept_all", granted: [marketing, analytics] }] });
    await send(projectId, 10, { path: "/shop", language: "sv", events: [{ event: "banner_shown" }, { event: "reject_all", refused: [marketing, analytics] }] });
    // A small cell: three banners on a phone in German, two of them customised.
    await send(projectId, 2, { path: "/rare", language: "de", events: [{ event: "banner_shown" }, { event: "customised", granted: [analytics], refused: [marketing] }] }, {
      "user-agent": iphone,
    });
    await send(projectId, 1, { path: "/rare", language: "de", events: [{ event: "banner_shown" }, { event: "dismissed" }] }, { "user-agent": iphone });
  });

  it("reports the funnel, opt-in rates with intervals and breakdowns, suppressing counts under the minimum cell", async () => {
    const report = ok(await admin("GET", `/projects/${tenant.projectId}/analytics`));
    expect(report).toMatchObject({ projectId: tenant.projectId, to: today(), minimumCell: 10 });
    expect(report.daily).toHaveLength(30);
    expect(report.funnel.counts).toEqual({
      banner_shown: 43,
      accept_all: 30,
      reject_all: 10,
      customised: null,
      dismissed: null,
      preferences_reopened: 0,
      withdrawn: 0,
    });
    expect(report.funnel.acceptAll).toMatchObject({ rate: 0.6977 });
    expect(report.funnel.customised).toBeNull();
    expect(report.funnel.decided!.rate).toBeCloseTo(42 / 43, 4);
    expect(report.daily.at(-1)).toEqual({ day: today(), counts: report.funnel.counts });

    const marketing = report.purposes.find((p) => p.purposeId === tenant.marketing)!;
    expect(marketing.total).toMatchObject({ granted: 30, refused: 12 });
    const optIn = marketing.total.optIn!;
    expect(optIn.rate).toBeCloseTo(30 / 42, 4);
    expect(optIn.low).toBeLessThan(optIn.rate);
    expect(optIn.high).toBeGreaterThan(optIn.rate);
    // Wilson's 95% interval for 30 of 42, worked by hand: centre 0.6963, half-width 0.1320.
    expect(optIn.low).toBeCloseTo(0.5643, 3);
    expect(optIn.high).toBeCloseTo(0.8283, 3);
    expect(marketing.versions).toEqual([{ version: "1", since: today() }]);
    const analytics = report.purposes.find((p) => p.purposeId === tenant.analytics)!;
    expect(analytics.total).toMatchObject({ granted: 32, refused: 10 });

    const languages = Object.fromEntries(report.breakdowns.language.map((b) => [b.value, b.counts.banner_shown]));
    expect(languages).toEqual({ en: 30, sv: 10, de: null });
    const german = report.breakdowns.language.find((b) => b.value === "de")!;
    expect(german.acceptAll).toBeNull();
    expect(Object.fromEntries(report.breakdowns.device.map((b) => [b.value, b.counts.banner_shown]))).toEqual({ desktop: 40, mobile: null });
    expect(report.breakdowns.page.map((b) => [b.value, b.counts.banner_shown])).toEqual([["/shop", 40], ["/rare", null]]);
    expect(report.breakdowns.regime).toMatchObject([{ value: "opt-in", counts: { banner_shown: 43 } }]);
    expect(report.breakdowns.variant).toMatchObject([{ value: "", counts: { banner_shown: 43 } }]);
  });

  it("marks the day a purpose's text got a new version", async () => {
    const t = await widgetTenant();
    ok(
      await t.api("PUT", `/configurations/purposes/${t.marketing}`, {
        referenceId: "marketing",
        name: "Marketing, in new words",
        legalGround: "consent",
        controllers: [t.controller],
        requireNewConsent: true,
      }),
    );
    const report = ok(await admin("GET", `/projects/${t.projectId}/analytics`));
    expect(report.purposes.find((p) => p.purposeId === t.marketing)!.versions).toEqual([
      { version: "1", since: today() },
      { version: "2", since: today() },
    ]);
  });

  it("exports the same numbers as CSV, suppressed counts empty", async () => {
    const reply = await admin("GET", `/projects/${tenant.projectId}/analytics/export.csv`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(reply.headers.get("content-disposition")).toContain(`analytics-${tenant.projectId}-`);
    const lines = String(reply.body).trimEnd().split("\r\n");
    expect(lines[0]).toBe("day,event,purpose_reference,count");
    expect(lines).toContain(`${today()},banner_shown,,43`);
    expect(lines).toContain(`${today()},customised,,`);
    expect(lines).toContain(`${today()},granted,marketing,30`);
    expect(lines).toContain(`${today()},refused,analytics,10`);
    expect(lines).toHaveLength(1 + 30 * 7 + 30 * 2 * 2);
  });

  it("answers a bad range 400, an unknown project 404, no credential 401", async () => {
    for (const query of ["from=2026-13-01", "from=2026-02-30", "from=2026-11-20&to=2026-11-10", "from=2024-01-01&to=2026-01-01", "days=7"]) {
      const reply = await admin("GET", `/projects/${tenant.projectId}/analytics?${query}`);
      expect(reply.status, query).toBe(400);
    }
    expectProblem(await admin("GET", "/projects/prj_01JDNOTAPROJECT00000000000/analytics"), 404, "not_found");
    expect((await call("GET", `/admin/v1/projects/${tenant.projectId}/analytics`)).status).toBe(401);
  });
});
