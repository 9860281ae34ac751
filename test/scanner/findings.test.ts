// The report's proposal built from visits (no browser): every host it proposes to block goes under a purpose it
// proposes; hosts no database entry names wait for the operator's decision.
import { describe, expect, it } from "vitest";
import { buildReport } from "../../scanner/findings";
import type { Visit } from "../../scanner/visit";

const page = "https://shop.example/";
const visitWith = (hosts: string[]): Visit => ({
  page,
  phase: "before-consent",
  error: null,
  decided: false,
  did: "Loaded the page and made no decision.",
  cookies: [],
  refusedCookies: [],
  storage: [],
  requests: hosts.map((host) => ({ host, resourceType: "script", initiator: page, afterDecision: false })),
  elements: [],
  links: [],
  assent: null,
});

describe("the proposal", () => {
  const report = buildReport({
    origin: "https://shop.example",
    startedAt: "2026-11-26T00:00:00.000Z",
    finishedAt: "2026-11-26T00:00:10.000Z",
    order: [page],
    visits: [visitWith(["www.googletagmanager.com", "cdn.unknown-vendor.example"])],
    refused: [],
  });

  it("lists only hosts of a category it proposes a purpose for", () => {
    const proposed = new Set(report.proposal.purposes.map((p) => p.category));
    expect(report.proposal.hosts.length).toBeGreaterThan(0);
    for (const host of report.proposal.hosts) expect(proposed).toContain(host.category);
  });

  it("leaves unclassified hosts out, still listed among the third-party hosts and flagged before consent", () => {
    expect(report.proposal.hosts.map((h) => h.host)).not.toContain("cdn.unknown-vendor.example");
    expect(report.thirdPartyHosts.find((h) => h.host === "cdn.unknown-vendor.example")).toMatchObject({ category: "unclassified" });
    expect(report.violations.map((v) => v.item)).toContain("cdn.unknown-vendor.example");
  });
});
