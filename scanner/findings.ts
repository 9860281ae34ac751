import { visitPhases, type ScanReport } from "../shared/scans/report.ts";
import { classifyHost, classifyName, cookieDatabase, type Category, type Classification } from "./classify.ts";
import { essential, proposalOf } from "../shared/scans/proposal.ts";
import { siteOf } from "./sites.ts";
import type { PageError, Phase, Visit } from "./visit.ts";

type Report = ScanReport;
type Violation = Report["violations"][number];

/** Assent's own storage keys and service: what the consent itself needs. */
const assent: Classification = { category: "necessary", vendor: "Assent", source: "Assent" };
const ownKey = (name: string) => name.startsWith("assent:");

const phaseIndex = (phase: Phase) => visitPhases.indexOf(phase);

/** Items seen in several visits, merged: the earliest phase, every page. */
class Merged<T extends { firstSeen: Phase; pages: string[] }> {
  readonly items = new Map<string, T>();
  add(key: string, make: () => T, phase: Phase, page: string): T {
    const item = this.items.get(key) ?? make();
    this.items.set(key, item);
    if (phaseIndex(phase) < phaseIndex(item.firstSeen)) item.firstSeen = phase;
    if (!item.pages.includes(page)) item.pages.push(page);
    return item;
  }
}

/** Which category weighs most when a script did several things: the one needing the strictest consent. */
const weight: Category[] = ["unclassified", "necessary", "security", "functional", "personalization", "analytics", "marketing"];

export type Crawl = { origin: string; startedAt: string; finishedAt: string; order: string[]; visits: Visit[]; refused: { url: string; error: PageError }[] };

export function buildReport({ origin, startedAt, finishedAt, order, visits, refused }: Crawl): Report {
  const site = siteOf(new URL(origin).hostname);
  const assentHosts = new Set(visits.flatMap((v) => (v.assent ? [new URL(v.assent).host] : [])));
  const hostClass = (host: string) => (assentHosts.has(host) ? assent : classifyHost(host.replace(/:\d+$/, "")));
  const nameClass = (name: string, domain: string) => (ownKey(name) ? assent : classifyName(name, domain));

  const cookies = new Merged<Report["cookies"][number]>();
  const refusedCookies = new Merged<NonNullable<Report["refusedCookies"]>[number]>();
  const storage = new Merged<Report["storage"][number]>();
  const hosts = new Merged<Report["thirdPartyHosts"][number]>();
  const elements = new Merged<Report["elements"][number]>();
  const violations = new Map<string, Violation>();
  /** What each script set or requested, to categorise the script itself. */
  const scriptCategories = new Map<string, Set<Category>>();
  const byScript = (script: string | null, category: Category) => {
    if (script) scriptCategories.set(script, (scriptCategories.get(script) ?? new Set()).add(category));
  };
  const flag = (visit: Visit, itemType: Violation["itemType"], item: string, category: Category, initiator: string | null) => {
    if (essential(category)) return;
    const kind = visit.phase === "before-consent" ? "before-consent" : "after-reject";
    const key = [kind, itemType, item, visit.page].join("\u0000");
    if (!violations.has(key)) violations.set(key, { kind, itemType, item, category, page: visit.page, initiator });
  };

  for (const visit of visits) {
    // After Accept all everything is allowed; after Reject all only what is still set, or requested once the decision
    // was made, counts. A visit whose decision could not be made says nothing about that decision.
    const judged = visit.phase === "before-consent" || (visit.phase === "after-reject" && visit.decided);
    for (const c of visit.cookies) {
      const { category, vendor, source } = nameClass(c.name, c.domain);
      cookies.add(`${c.name}\u0000${c.domain}\u0000${c.path}`, () => ({
        name: c.name, domain: c.domain, path: c.path, expires: c.expires,
        party: siteOf(c.domain) === site ? "first" : "third",
        httpOnly: c.httpOnly, secure: c.secure, sameSite: c.sameSite,
        category, vendor, source, firstSeen: visit.phase, pages: [],
      }), visit.phase, visit.page);
      byScript(c.initiator, category);
      if (judged) flag(visit, "cookie", c.name, category, c.initiator);
    }
    for (const c of visit.refusedCookies) {
      refusedCookies.add(`${c.name}\u0000${c.domain}`, () => ({ ...c, firstSeen: visit.phase, pages: [] }), visit.phase, visit.page);
    }
    for (const s of visit.storage) {
      const { category, vendor, source } = nameClass(s.name, new URL(s.origin).hostname);
      storage.add(`${s.area}\u0000${s.origin}\u0000${s.name}`, () => ({ name: s.name, area: s.area, origin: s.origin, category, vendor, source, firstSeen: visit.phase, pages: [] }), visit.phase, visit.page);
      byScript(s.initiator, category);
      if (judged) flag(visit, "storage", s.name, category, s.initiator);
    }
    for (const r of visit.requests) {
      const { category, vendor, source } = hostClass(r.host);
      const entry = hosts.add(r.host, () => ({ host: r.host, resourceTypes: [], initiators: [], category, vendor, source, firstSeen: visit.phase, pages: [] }), visit.phase, visit.page);
      if (!entry.resourceTypes.includes(r.resourceType)) entry.resourceTypes.push(r.resourceType);
      if (r.initiator && !entry.initiators.includes(r.initiator) && entry.initiators.length < 20) entry.initiators.push(r.initiator);
      byScript(r.initiator, category);
      if (visit.phase === "before-consent" || (judged && r.afterDecision)) flag(visit, "request", r.host, category, r.initiator);
    }
  }
  for (const visit of visits) {
    for (const e of visit.elements) {
      const host = new URL(e.src).host;
      const own = siteOf(new URL(e.src).hostname) === site ? null : hostClass(host);
      const did = [...(scriptCategories.get(e.src) ?? [])];
      const strongest = did.sort((a, b) => weight.indexOf(b) - weight.indexOf(a))[0];
      const { category, vendor, source } =
        own && own.category !== "unclassified"
          ? own
          : { category: strongest ?? "unclassified", vendor: own?.vendor ?? null, source: strongest ? "what the script set or requested" : null };
      elements.add(`${e.kind}\u0000${e.src}`, () => ({ kind: e.kind, src: e.src, gatedBy: e.gatedBy, category, vendor, source, firstSeen: visit.phase, pages: [] }), visit.phase, visit.page);
    }
  }

  const all = {
    cookies: [...cookies.items.values()],
    storage: [...storage.items.values()],
    thirdPartyHosts: [...hosts.items.values()],
    elements: [...elements.items.values()],
  };
  const pages = pagesOf(order, visits, refused);
  return {
    version: 1,
    origin,
    startedAt,
    finishedAt,
    database: cookieDatabase,
    pages,
    complete: pages.every((p) => p.scanned),
    ...all,
    refusedCookies: [...refusedCookies.items.values()],
    violations: [...violations.values()],
    proposal: proposalOf(all),
  };
}

/** Errors that mean a pass did not see the page as asked (docs/scanner.md#exit-codes). */
const notSeen = new Set(["unreachable", "timeout", "redirect_loop", "too_large", "navigation_failed", "navigation_refused", "aborted", "decision_not_recorded"]);

/** Whether a page with `error` was seen: a 5xx, or a 4xx of the start page (nothing to crawl from), was not. */
function seen(error: PageError | null, start: boolean): boolean {
  if (!error) return true;
  if (error.code === "http_error") return !(start || /answered 5\d\d/.test(error.detail));
  return !notSeen.has(error.code);
}

function pagesOf(order: string[], visits: Visit[], refused: Crawl["refused"]): Report["pages"] {
  const errors = new Map<string, PageError>(refused.map((r) => [r.url, r.error]));
  const unseen = new Set<string>();
  for (const v of visits) {
    if (v.error && !errors.has(v.page)) errors.set(v.page, v.error);
    if (!seen(v.error, v.page === order[0])) unseen.add(v.page);
  }
  const visited = new Set([...visits.map((v) => v.page), ...refused.map((r) => r.url)]);
  return order.filter((url) => visited.has(url)).map((url) => {
    const error = errors.get(url) ?? null;
    const passes = visits.filter((v) => v.page === url).sort((a, b) => phaseIndex(a.phase) - phaseIndex(b.phase)).map((v) => ({ phase: v.phase, did: v.did }));
    return { url, status: error ? "error" : "ok", error, scanned: !unseen.has(url) && seen(errors.get(url) ?? null, url === order[0]), passes };
  });
}

