// A flood of fake counts from one address must not move a report by more than that address's share: reports are
// counted per address and project by the Rate Limiting binding (10 a minute in this project, vitest.config.ts), and
// those over it are refused and dropped.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { countEvents } from "../api/analytics-helpers";
import { expectProblem, inOneWindow, newClient, newProject } from "../api/helpers";
import { freshIp } from "./callers";

const limit = 10;

const shownCount = async (projectId: string) =>
  Number((await env.DB.prepare("SELECT coalesce(sum(count), 0) AS n FROM analytics_counts WHERE project_id = ? AND event = 'banner_shown'").bind(projectId).first<{ n: number }>())!.n);

describe("counting under a flood", () => {
  it("counts at most the limit's worth of reports from one address, and still counts everyone else's", inOneWindow(async () => {
    const { projectId } = await newProject();
    await newClient(projectId, "web", ["https://shop.example"]);
    const flooder = freshIp();
    const report = { events: [{ event: "banner_shown" }, { event: "accept_all", granted: [] }] };
    const replies = [];
    for (let i = 0; i < 3 * limit; i++) replies.push(await countEvents(projectId, report, { "cf-connecting-ip": flooder }));
    expect(replies.filter((r) => r.status === 204)).toHaveLength(limit);
    expectProblem(replies.at(-1)!, 429, "rate_limited");
    expect(replies.at(-1)!.headers.get("ratelimit-policy")).toBe(`"analytics-events";q=${limit};w=60`);
    for (let i = 0; i < 5; i++) expect((await countEvents(projectId, report, { "cf-connecting-ip": freshIp() })).status).toBe(204);
    expect(await shownCount(projectId)).toBe(limit + 5);
  }));
});
