import type { ScanReport } from "../../shared/scans/report";
import type { ScanCounts } from "./table";

type Compared = Pick<ScanReport, "cookies" | "storage" | "thirdPartyHosts" | "violations">;
type Item<K extends keyof Compared> = Compared[K][number];

/** What makes two entries the same item in two scans: a violation is the same wherever it was seen. */
const identities: { [K in keyof Compared]: (item: Item<K>) => string } = {
  cookies: (c) => JSON.stringify([c.name, c.domain, c.path]),
  storage: (s) => JSON.stringify([s.area, s.origin, s.name]),
  thirdPartyHosts: (h) => h.host,
  violations: (v) => JSON.stringify([v.kind, v.itemType, v.item]),
};
const kinds = Object.keys(identities) as (keyof Compared)[];

export type ScanDiff = { previousScanId: string | null; new: Compared; gone: Compared };

function missingFrom<K extends keyof Compared>(kind: K, items: Compared[K], other: Compared[K]): Compared[K] {
  const identity = identities[kind] as (item: Item<K>) => string;
  const present = new Set((other as Item<K>[]).map(identity));
  return (items as Item<K>[]).filter((item) => !present.has(identity(item))) as Compared[K];
}

const each = (pick: <K extends keyof Compared>(kind: K) => Compared[K]) =>
  Object.fromEntries(kinds.map((kind) => [kind, pick(kind)])) as Compared;

/** A scan against the previous completed scan of its origin; against none, everything is new. */
export function diffReports(report: ScanReport, previous: { scanId: string; report: ScanReport } | null): ScanDiff {
  const before: Compared = previous?.report ?? { cookies: [], storage: [], thirdPartyHosts: [], violations: [] };
  return {
    previousScanId: previous?.scanId ?? null,
    new: each((kind) => missingFrom(kind, report[kind], before[kind])),
    gone: each((kind) => missingFrom(kind, before[kind], report[kind])),
  };
}

export function countsOf(report: ScanReport, diff: ScanDiff): ScanCounts {
  return {
    pages: report.pages.length,
    pageErrors: report.pages.filter((page) => page.status === "error").length,
    cookies: report.cookies.length,
    storage: report.storage.length,
    thirdPartyHosts: report.thirdPartyHosts.length,
    violations: report.violations.length,
    newItems: diff.new.cookies.length + diff.new.storage.length + diff.new.thirdPartyHosts.length,
    newViolations: diff.new.violations.length,
  };
}
