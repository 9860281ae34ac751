import type { ScanReport } from "../shared/scans/report.ts";

/** The report as a person reads it: violations first, then what was found by category, then the proposal. */
export function summarize(report: ScanReport): string {
  const lines: string[] = [];
  const failed = report.pages.filter((p) => p.error);
  const unseen = report.pages.filter((p) => p.scanned === false);
  lines.push(`Scanned ${report.origin}: ${report.pages.length} pages (${failed.length} with errors), ${report.startedAt} → ${report.finishedAt}`);
  lines.push(`Categories: the vendor catalogue, then ${report.database.name} ${report.database.revision}`, "");
  if (unseen.length) {
    lines.push(`INCOMPLETE: ${unseen.length} of ${report.pages.length} pages could not be scanned as asked; what they set or load is not below:`);
    for (const p of unseen) lines.push(`  ${p.url}: ${p.error?.code ?? "not scanned"}`);
    lines.push("");
  }
  const kinds = [
    ["before-consent", "Before any decision"],
    ["after-reject", "Still there after Reject all"],
  ] as const;
  lines.push(`VIOLATIONS: ${report.violations.length}`);
  for (const [kind, title] of kinds) {
    const found = report.violations.filter((v) => v.kind === kind);
    if (!found.length) continue;
    lines.push(`  ${title} (${found.length}):`);
    for (const v of found) lines.push(`    ${v.itemType} ${v.item} [${v.category}] on ${v.page}${v.initiator ? ` by ${v.initiator}` : ""}`);
  }
  lines.push("");
  const count = (items: { category: string }[]) => {
    const by = new Map<string, number>();
    for (const { category } of items) by.set(category, (by.get(category) ?? 0) + 1);
    return [...by].map(([category, n]) => `${category} ${n}`).join(", ") || "none";
  };
  lines.push(`Cookies: ${report.cookies.length} (${count(report.cookies)})`);
  for (const c of report.cookies) lines.push(`  ${c.name} ${c.domain} ${c.party}-party [${c.category}${c.vendor ? `, ${c.vendor}` : ""}] first seen ${c.firstSeen}${c.source ? ` (${c.source})` : ""}`);
  const refused = report.refusedCookies ?? [];
  if (refused.length) {
    lines.push(`Refused by the browser (no browser keeps them; not violations): ${refused.length}`);
    for (const c of refused) lines.push(`  ${c.name} ${c.domain}: ${c.reason}`);
  }
  lines.push(`Storage keys: ${report.storage.length} (${count(report.storage)})`);
  for (const s of report.storage) lines.push(`  ${s.area} ${s.name} ${s.origin} [${s.category}] first seen ${s.firstSeen}`);
  lines.push(`Third-party hosts: ${report.thirdPartyHosts.length} (${count(report.thirdPartyHosts)})`);
  for (const h of report.thirdPartyHosts) lines.push(`  ${h.host} [${h.category}] ${h.resourceTypes.join(" ")} first seen ${h.firstSeen}`);
  lines.push("", "Proposal:");
  for (const p of report.proposal.purposes) lines.push(`  purpose ${p.name} (${p.category}; Consent Mode: ${p.consentModeTypes.join(", ") || "none"}) covering ${p.items} items`);
  for (const g of report.proposal.gating) lines.push(`  gate: ${g.markup}`);
  if (failed.length) {
    lines.push("", "Page errors:");
    for (const p of failed) lines.push(`  ${p.url}: ${p.error!.code}: ${p.error!.detail}`);
  }
  const explained = report.pages.filter((p) => p.passes?.some((pass) => pass.did.includes("Your privacy choices")));
  if (explained.length) {
    lines.push("", "Decisions made through \"Your privacy choices\" (the banner offers OK, which records nothing):");
    for (const p of explained) lines.push(`  ${p.url}`);
  }
  return lines.join("\n");
}
