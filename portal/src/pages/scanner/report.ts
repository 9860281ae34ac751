// A scan's report as the scanner page shows it: violations first, then what is new since the previous scan, then
// every item grouped by category (the purpose it belongs to). Plain template functions over the API's shapes.
import { html, nothing } from "lit";
import { dataTable } from "../../parts";
import { scanCategories, type ScanCategory, type ScanReport, type ScanWithReport } from "../../types";
import { several } from "../../ui";

type Diff = NonNullable<ScanWithReport["diff"]>;
type Items = Diff["new"];

const categoryLabels: Record<ScanCategory, string> = {
  marketing: "Marketing",
  analytics: "Analytics",
  personalization: "Personalization",
  functional: "Functional",
  unclassified: "Unclassified",
  necessary: "Necessary",
  security: "Security",
};
const essential: ScanCategory[] = ["necessary", "security"];

export const categoryLabel = (category: ScanCategory) => categoryLabels[category];

const phaseLabels = { "before-consent": "Before consent", "after-accept": "After Accept all", "after-reject": "After Reject all" } as const;

const categoryBadge = (category: ScanCategory) =>
  html`<span class="badge ${essential.includes(category) ? "green" : category === "unclassified" ? "" : "amber"}">${categoryLabels[category]}</span>`;

const pageLink = (url: string) => html`<code>${new URL(url).pathname}</code>`;

export function violationsView(report: ScanReport) {
  const { violations } = report;
  return html`<section class="card" aria-labelledby="scan-violations-title">
    <h3 id="scan-violations-title">Violations</h3>
    ${violations.length === 0
      ? html`<p class="notice success">Nothing non-essential was set or requested before a decision or after Reject all.</p>`
      : html`<p class="muted small">Non-essential items seen before any decision, or still there after Reject all: what regulators test for.</p>
          ${dataTable(
            "Violations",
            ["When", "Item", "Category", "Page", "Initiator"],
            violations.map(
              (v) => html`<tr>
                <td data-label="When"><span class="badge ${v.kind === "after-reject" ? "red" : "amber"}">${v.kind === "after-reject" ? "After Reject all" : "Before consent"}</span></td>
                <td data-label="Item"><code>${v.item}</code> <span class="muted small">${v.itemType}</span></td>
                <td data-label="Category">${categoryBadge(v.category)}</td>
                <td data-label="Page">${pageLink(v.page)}</td>
                <td data-label="Initiator">${v.initiator ? html`<code class="small">${v.initiator}</code>` : html`<span class="muted">unknown</span>`}</td>
              </tr>`,
            ),
          )}`}
  </section>`;
}

/** One line per item of a diff side: cookies, storage keys, hosts and violations together. */
function itemList(items: Items, label: string) {
  const entries = [
    ...items.cookies.map((c) => html`<li>Cookie <code>${c.name}</code> ${categoryBadge(c.category)}</li>`),
    ...items.storage.map((s) => html`<li>${s.area} key <code>${s.name}</code> ${categoryBadge(s.category)}</li>`),
    ...items.thirdPartyHosts.map((h) => html`<li>Host <code>${h.host}</code> ${categoryBadge(h.category)}</li>`),
    ...items.violations.map((v) => html`<li>Violation: <code>${v.item}</code> ${v.kind === "after-reject" ? "after Reject all" : "before consent"}</li>`),
  ];
  return entries.length ? html`<ul aria-label=${label}>${entries}</ul>` : html`<p class="muted">None.</p>`;
}

export function diffView(diff: Diff) {
  return html`<section class="card" aria-labelledby="scan-diff-title">
    <h3 id="scan-diff-title">New since last scan</h3>
    ${diff.previousScanId === null
      ? html`<p class="muted small">The first scan of this site: everything it found is new.</p>`
      : html`<p class="muted small">Compared with scan <code>${diff.previousScanId}</code> of the same site.</p>`}
    ${itemList(diff.new, "New since last scan")}
    <h4>Gone since last scan</h4>
    ${itemList(diff.gone, "Gone since last scan")}
  </section>`;
}

/** Every cookie, storage key and third-party host, grouped by category, non-essential categories first. */
export function groupedView(report: ScanReport) {
  const groups = scanCategories
    .map((category) => ({
      category,
      rows: [
        ...report.cookies.filter((c) => c.category === category).map((c) => ({ kind: "Cookie", name: c.name, vendor: c.vendor, firstSeen: c.firstSeen, pages: c.pages.length })),
        ...report.storage.filter((s) => s.category === category).map((s) => ({ kind: s.area, name: s.name, vendor: s.vendor, firstSeen: s.firstSeen, pages: s.pages.length })),
        ...report.thirdPartyHosts.filter((h) => h.category === category).map((h) => ({ kind: "Host", name: h.host, vendor: h.vendor, firstSeen: h.firstSeen, pages: h.pages.length })),
      ],
    }))
    .filter((group) => group.rows.length > 0);
  return html`<section class="card" aria-labelledby="scan-groups-title">
    <h3 id="scan-groups-title">By purpose</h3>
    ${groups.map(
      (group) => html`<h4>${categoryLabels[group.category]}${essential.includes(group.category) ? html` <span class="muted small">(essential: no consent needed)</span>` : nothing}</h4>
        ${dataTable(
          `${categoryLabels[group.category]} items`,
          ["Item", "Kind", "Vendor", "First seen", { label: "Pages", end: true }],
          group.rows.map(
            (row) => html`<tr>
              <td data-label="Item"><code>${row.name}</code></td>
              <td data-label="Kind">${row.kind}</td>
              <td data-label="Vendor">${row.vendor ?? html`<span class="muted">unknown</span>`}</td>
              <td data-label="First seen">${phaseLabels[row.firstSeen]}</td>
              <td data-label="Pages" class="end">${row.pages}</td>
            </tr>`,
          ),
        )}`,
    )}
  </section>`;
}

/** The markup that gates each ungated script and iframe, to paste into the site. */
export function gatingView(report: ScanReport) {
  const { gating } = report.proposal;
  if (gating.length === 0) return nothing;
  return html`<section class="card" aria-labelledby="scan-gating-title">
    <h3 id="scan-gating-title">Gating markup</h3>
    <p class="muted small">Replace each element with its gated form; the widget runs it once its purpose is allowed.</p>
    ${gating.map((g) => html`<pre class="json"><code>${g.markup}</code></pre>`)}
  </section>`;
}

export function pageErrorsView(report: ScanReport) {
  const failed = report.pages.filter((p) => p.status === "error");
  if (failed.length === 0) return nothing;
  return html`<details>
    <summary>${several(failed.length, "page")} could not be scanned</summary>
    <ul>
      ${failed.map((p) => html`<li><code>${p.url}</code>: ${p.error?.detail} <span class="muted small">(${p.error?.code})</span></li>`)}
    </ul>
  </details>`;
}
