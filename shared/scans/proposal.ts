import type { ConsentType } from "../consent-mode/types.ts";
import type { ScanReport, scanCategories } from "./report.ts";

/**
 * What a scan report proposes, from the categories its items got: the scanner writes it with each report, and the API
 * writes it again when a project's essential marks change a stored report's categories (worker/scans/queries.ts).
 */
type Report = ScanReport;
type Category = (typeof scanCategories)[number];

/** Essential categories: allowed before a decision and after Reject all. */
export const essential = (category: Category) => category === "necessary" || category === "security";

/** What each non-essential category becomes as an Assent purpose, with the Consent Mode types it stands for. */
export const purposeOf: Record<Exclude<Category, "necessary" | "security">, { name: string; consentModeTypes: ConsentType[] }> = {
  analytics: { name: "Analytics", consentModeTypes: ["analytics_storage"] },
  marketing: { name: "Marketing", consentModeTypes: ["ad_storage", "ad_user_data", "ad_personalization"] },
  functional: { name: "Functional", consentModeTypes: ["functionality_storage"] },
  personalization: { name: "Personalization", consentModeTypes: ["personalization_storage"] },
  unclassified: { name: "Unclassified", consentModeTypes: [] },
};

const attribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

type Items = Pick<Report, "cookies" | "storage" | "thirdPartyHosts" | "elements">;

/** Purposes for the non-essential categories found, gating markup for ungated elements, and the hosts to block under them. */
export function proposalOf({ cookies, storage, thirdPartyHosts, elements }: Items): Report["proposal"] {
  const counts = new Map<keyof typeof purposeOf, number>();
  for (const { category } of [...cookies, ...storage, ...thirdPartyHosts]) {
    if (essential(category) || category === "unclassified") continue;
    counts.set(category, (counts.get(category) ?? 0) + 1);
  }
  const purposes = [...counts].map(([category, items]) => ({ category, ...purposeOf[category], items }));
  const gating = elements
    .filter((e) => e.gatedBy === null && !essential(e.category) && e.category !== "unclassified")
    .map((e) => ({
      kind: e.kind,
      src: e.src,
      category: e.category,
      markup:
        e.kind === "script"
          ? `<script type="text/plain" data-assent-purpose="${e.category}" src="${attribute(e.src)}"></script>`
          : `<iframe data-assent-purpose="${e.category}" data-src="${attribute(e.src)}"></iframe>`,
    }));
  // An unclassified host has no purpose to go under: it waits for the operator's decision (listed in thirdPartyHosts).
  const hosts = thirdPartyHosts.filter((h) => !essential(h.category) && h.category !== "unclassified").map((h) => ({ host: h.host, category: h.category }));
  return { purposes, gating, hosts };
}

/** A cookie or storage key the project marked essential, with why (a trailing `*` covers every name it begins). */
export type EssentialMark = { name: string; reason: string };

/**
 * The report with the project's essential marks applied: each marked cookie and storage key is `necessary`, its
 * source the project's reason, and no violation names it; the proposal follows. Requests are never marked.
 */
export function withEssentialMarks(report: Report, marks: EssentialMark[]): Report {
  if (marks.length === 0) return report;
  const markOf = (name: string) => marks.find((m) => (m.name.endsWith("*") ? name.startsWith(m.name.slice(0, -1)) : m.name === name));
  const marked = <T extends { name: string; category: Category; source?: string | null }>(item: T): T => {
    const mark = markOf(item.name);
    return mark ? { ...item, category: "necessary", source: `marked essential by the project: ${mark.reason}` } : item;
  };
  const cookies = report.cookies.map(marked);
  const storage = report.storage.map(marked);
  return {
    ...report,
    cookies,
    storage,
    violations: report.violations.filter((v) => v.itemType === "request" || !markOf(v.item)),
    proposal: proposalOf({ cookies, storage, thirdPartyHosts: report.thirdPartyHosts, elements: report.elements }),
  };
}
