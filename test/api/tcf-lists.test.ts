// The TCF lists the service hosts (docs/tcf.md#the-hosted-lists): IAB's GVL v3 and its translations, Google's ATP
// list, fetched by the cron after each weekly publication, every version kept in D1, served at /tcf with the edge
// cache; a failing or broken fetch keeps the last good version and raises ops.alert (rule tcf_lists_failing).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Env } from "../../worker/env";
import { lastPublication, refreshLists } from "../../worker/tcf/refresh";
import gvlSnapshot from "../fixtures/tcf/vendor-list.json";
import atpSnapshot from "../fixtures/tcf/additional-consent-providers.csv?raw";
import { call, expectProblem, newProject, ok, webhookReceiver } from "./helpers";
import { alertsAt, health, hour, minute, opsWebhook, runCron } from "./ops-helpers";

const day = 24 * hour;
/** Thursday 26 November 2026, 17:00 UTC: after that week's publication. */
const week0 = Date.UTC(2026, 10, 26, 17);

type Answer = { status?: number; body: string };
/** A publisher answering each file by its name (the URL's last segment, every translation as one); anything else 404. */
const publisher =
  (files: Record<string, Answer>) =>
  async (url: string): Promise<Response> => {
    const answer = files[url.split("/").pop()!.replace(/^purposes-.*/, "purposes-*")];
    return answer ? new Response(answer.body, { status: answer.status ?? 200 }) : new Response("not published", { status: 404 });
  };

const gvlOf = (version: number, change: (gvl: Record<string, unknown>) => void = () => {}): Answer => {
  const gvl = structuredClone(gvlSnapshot) as unknown as Record<string, unknown>;
  gvl.vendorListVersion = version;
  change(gvl);
  return { body: JSON.stringify(gvl) };
};
const vendorsOf = (gvl: Record<string, unknown>) => gvl.vendors as Record<string, Record<string, unknown>>;
const translation: Answer = { body: JSON.stringify({ ...gvlSnapshot, vendors: undefined }) };
const goodLists = (version: number) =>
  publisher({ "vendor-list.json": gvlOf(version), "purposes-*": translation, "additional-consent-providers.csv": { body: atpSnapshot } });

/** Refresh runs until nothing is due, as the cron's minutes would. */
async function refreshAll(asOf: number, fetcher: ReturnType<typeof publisher>) {
  for (let minutes = 0; (await refreshLists(env as Env, asOf + minutes * minute, fetcher)) > 0; minutes++) expect(minutes).toBeLessThan(10);
}

const newest = async () => ok(await call("GET", "/tcf/v3/vendor-list.json")) as { vendorListVersion: number };
const refreshRow = (source: string) =>
  env.DB.prepare("SELECT failing_since AS failingSince, error FROM tcf_refreshes WHERE source = ?")
    .bind(source)
    .first<{ failingSince: string | null; error: string | null }>();
const atpVersion = async () => (ok(await call("GET", "/tcf/atp/additional-consent-providers.json")) as { version: number }).version;

describe("the weekly schedule", () => {
  it("is IAB's: Thursdays after 17:00 Brussels time", () => {
    expect(new Date(lastPublication(week0)).toISOString()).toBe("2026-11-26T16:00:00.000Z");
    expect(new Date(lastPublication(week0 - 2 * hour)).toISOString()).toBe("2026-11-19T16:00:00.000Z");
    expect(new Date(lastPublication(week0 + 6 * day)).toISOString()).toBe("2026-11-26T16:00:00.000Z");
    expect(new Date(lastPublication(week0 + 7 * day)).toISOString()).toBe("2026-12-03T16:00:00.000Z");
  });
});

/** Puts TCF on or off for a project of its own, straight in D1 (what `PUT …/tcf` stores), so no refresh starts with it. */
async function tcfProject(enabled: boolean) {
  const { projectId } = await newProject();
  await env.DB.prepare("UPDATE projects SET tcf = ? WHERE id = ?")
    .bind(JSON.stringify({ enabled, cmpId: 300, cmpVersion: 1, vendors: [], publisherRestrictions: [], publisherPurposes: { consent: [], legitimateInterest: [] }, acProviders: [] }), projectId)
    .run();
  return projectId;
}

describe("a deployment where no project has TCF on", () => {
  it("fetches no list and raises nothing, however the publisher answers; the first project with TCF on starts the refresh", async () => {
    await env.DB.batch([env.DB.prepare("DELETE FROM tcf_lists"), env.DB.prepare("DELETE FROM tcf_refreshes")]);
    const ops = opsWebhook();
    const failing = { ...ops.settings, TCF_GVL_BASE_URL: `${webhookReceiver}/always-500/${crypto.randomUUID()}/` };
    const off = await tcfProject(false);
    for (const k of [0, 1, 2]) await runCron(week0 + k * minute, failing);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM tcf_refreshes").first("n")).toBe(0);
    expect(await alertsAt(ops.key)).toEqual([]);
    expectProblem(await call("GET", "/tcf/v3/vendor-list.json"), 404, "not_found");
    // A failure recorded while TCF was on is forgotten once no project needs the lists: no counter, and the list is
    // tried at once when a project turns TCF on again.
    // (Failing since the run's own time: the alert check of the same run, which may come first, finds nothing to fire.)
    await env.DB.prepare("INSERT INTO tcf_refreshes (source, checked, failing_since, error) VALUES ('atp', ?1, ?1, 'HTTP 500')").bind(new Date(week0 + 3 * minute).toISOString()).run();
    await runCron(week0 + 3 * minute, failing);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM tcf_refreshes").first("n")).toBe(0);
    expect((await health()).counters.tcfListFailingSeconds).toBe(0);
    await env.DB.prepare("UPDATE projects SET tcf = json_set(tcf, '$.enabled', json('true')) WHERE id = ?").bind(off).run();
    await runCron(week0 + 4 * minute);
    expect((await newest()).vendorListVersion).toBe(120);
  });
});

describe("the hosted lists", () => {
  beforeAll(() => tcfProject(true));

  it("are served after the cron's first run, every version kept, from anywhere", async () => {
    // An earlier file on the same workerd may have run the cron against the stand-in publisher: start from nothing.
    await env.DB.batch([env.DB.prepare("DELETE FROM tcf_lists"), env.DB.prepare("DELETE FROM tcf_refreshes")]);
    expectProblem(await call("GET", "/tcf/v3/vendor-list.json"), 404, "not_found");
    // The cron's own job, against the stand-in publisher (vitest.config.ts tcfListsStandIn): a few fetches a run.
    await runCron(week0);
    expect((await newest()).vendorListVersion).toBe(120);
    const reply = await call("GET", "/tcf/v3/vendor-list.json");
    expect(reply.headers.get("access-control-allow-origin")).toBe("*");
    expect(reply.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(reply.body).toEqual(gvlSnapshot);
    for (let i = 1; i < 10; i++) await runCron(week0 + i * minute);
    const fr = ok(await call("GET", "/tcf/v3/purposes-fr.json")) as { purposes: Record<string, { name: string }> };
    expect(fr.purposes["1"]!.name).toBe("Stocker et/ou accéder à des informations sur un appareil");
    expectProblem(await call("GET", "/tcf/v3/purposes-xx.json"), 400, "validation_failed");
    const atp = ok(await call("GET", "/tcf/atp/additional-consent-providers.json")) as { version: number; providers: unknown[] };
    expect(atp.version).toBe(1);
    expect(atp.providers).toContainEqual({
      id: 1,
      name: "Google, Inc. (test stand-in)",
      policyUrl: "https://policies.google.com/privacy",
      domains: ["google.com", "doubleclick.net"],
    });

    // Within the week nothing is due; after the next publication the new version is kept beside the old.
    expect(await refreshLists(env as Env, week0 + day, goodLists(121))).toBe(0);
    await refreshAll(week0 + 7 * day, goodLists(121));
    expect((await newest()).vendorListVersion).toBe(121);
    const archived = await call("GET", "/tcf/v3/archives/vendor-list-v120.json");
    expect((ok(archived) as { vendorListVersion: number }).vendorListVersion).toBe(120);
    expect(archived.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // Again, from the edge cache: the same document.
    expect((ok(await call("GET", "/tcf/v3/archives/vendor-list-v120.json")) as { vendorListVersion: number }).vendorListVersion).toBe(120);
    expectProblem(await call("GET", "/tcf/v3/archives/vendor-list-v999.json"), 404, "not_found");
    expectProblem(await call("GET", "/tcf/v3/archives/vendor-list-vx.json"), 400, "validation_failed");
    // The ATP list did not change: no new version of it.
    expect(await atpVersion()).toBe(1);
  });

  it("keep the last good version when a fetch fails or answers a broken document, and say why", async () => {
    const week = week0 + 14 * day;
    await refreshAll(week, goodLists(130));
    expect((await newest()).vendorListVersion).toBe(130);
    const broken: [string, Answer][] = [
      ["HTTP 500", { status: 500, body: "boom" }],
      ["JSON", { body: "<html>maintenance</html>" }],
      ["gvlSpecificationVersion", gvlOf(131, (g) => (g.gvlSpecificationVersion = 2))],
      ["vendors", gvlOf(131, (g) => delete g.vendors)],
      ["purposes", gvlOf(131, (g) => delete vendorsOf(g)["755"]!.purposes)],
      ["another id", gvlOf(131, (g) => (vendorsOf(g)["755"]!.id = 756))],
      ["older than the kept 130", gvlOf(129)],
    ];
    const brokenCsv = { body: "id;name\n1;x" };
    for (const [i, [reason, answer]] of broken.entries()) {
      await refreshLists(env as Env, week + (i + 1) * 7 * day, publisher({ "vendor-list.json": answer, "purposes-*": translation, "additional-consent-providers.csv": brokenCsv }));
      expect((await newest()).vendorListVersion, reason).toBe(130);
      const row = await refreshRow("gvl");
      expect(row!.error, reason).toContain(reason);
      expect(row!.failingSince, reason).toBe(new Date(week + 7 * day).toISOString());
      expect((await refreshRow("atp"))!.error).toContain("no provider_id column");
    }
    expect(await atpVersion()).toBe(1);
    // A failing list is tried again (hourly, not only the next week); a good answer clears the failure.
    await refreshAll(week + (broken.length + 1) * 7 * day, goodLists(131));
    expect((await newest()).vendorListVersion).toBe(131);
    expect(await refreshRow("gvl")).toEqual({ failingSince: null, error: null });
  });

  it("raise one ops.alert when a refresh fails and one resolved when it recovers", async () => {
    const ops = opsWebhook();
    const start = week0 + 200 * day;
    const settings = { ...ops.settings, TCF_GVL_BASE_URL: `${webhookReceiver}/always-500/${crypto.randomUUID()}/` };
    for (const k of [0, 1, 2]) await runCron(start + k * minute, settings);
    const [firing, ...rest] = await alertsAt(ops.key);
    expect(rest).toEqual([]);
    // The counter is the age of the oldest failure at the check: the run a minute after the first failing one.
    expect(firing).toMatchObject({ type: "ops.alert", data: { rule: "tcf_lists_failing", status: "firing", value: 60, threshold: 1 } });
    // Each failed list is tried again after an hour: good again, and the next check resolves the alert.
    await refreshAll(start + 2 * hour, goodLists(140));
    await runCron(start + 3 * hour, ops.settings);
    expect((await alertsAt(ops.key)).map((e) => [e.data.rule, e.data.status])).toEqual([
      ["tcf_lists_failing", "firing"],
      ["tcf_lists_failing", "resolved"],
    ]);
    expect((await health()).counters.tcfListFailingSeconds).toBe(0);
  });
});
