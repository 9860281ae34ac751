// Two scans of one shop a week apart, as the crawl reports them (shared/scans/report.ts): hand-written, checked by
// ScanReport.parse when built. Between them the shop added Meta's pixel (a new host, a new cookie, a new pre-consent
// violation) and dropped Hotjar (its storage key is gone).
import { ScanReport } from "../../shared/scans/report";

export const shopOrigin = "https://shop.example";
const home = `${shopOrigin}/`;
const products = `${shopOrigin}/products`;
const gtm = "https://www.googletagmanager.com/gtag/js?id=G-ABC123";
const database = { name: "Open Cookie Database", revision: "0ee5a17" };

const firstParty = { domain: ".shop.example", path: "/", party: "first", httpOnly: false, secure: true, sameSite: "Lax" } as const;

const sessionCookie = { ...firstParty, name: "session", httpOnly: true, expires: null, category: "necessary", vendor: null, firstSeen: "before-consent", pages: [home, products] } as const;
const ga = { ...firstParty, name: "_ga", expires: 1830000000, category: "analytics", vendor: "Google Analytics", firstSeen: "before-consent", pages: [home, products] } as const;
const gaStream = { ...ga, name: "_ga_ABC123" } as const;
const fbp = { ...firstParty, name: "_fbp", expires: 1801000000, category: "marketing", vendor: "Meta", firstSeen: "before-consent", pages: [home] } as const;

const hotjar = { name: "_hjSessionUser_1", area: "localStorage", origin: shopOrigin, category: "analytics", vendor: "Hotjar", firstSeen: "after-accept", pages: [home] } as const;
const cart = { name: "cart", area: "localStorage", origin: shopOrigin, category: "unclassified", vendor: null, firstSeen: "before-consent", pages: [products] } as const;

const gtmHost = { host: "www.googletagmanager.com", resourceTypes: ["script"], initiators: [home], category: "analytics", vendor: "Google Tag Manager", firstSeen: "before-consent", pages: [home, products] } as const;
const metaHost = { host: "connect.facebook.net", resourceTypes: ["script", "beacon"], initiators: [home], category: "marketing", vendor: "Meta", firstSeen: "before-consent", pages: [home] } as const;

const analyticsPurpose = { category: "analytics", name: "Analytics", consentModeTypes: ["analytics_storage"], items: 3 } as const;
const marketingPurpose = { category: "marketing", name: "Marketing", consentModeTypes: ["ad_storage", "ad_user_data", "ad_personalization"], items: 2 } as const;

const gtmViolation = { kind: "before-consent", itemType: "request", item: "www.googletagmanager.com", category: "analytics", page: home, initiator: home } as const;
const gaViolation = { kind: "before-consent", itemType: "cookie", item: "_ga", category: "analytics", page: home, initiator: gtm } as const;

/** The first scan: Google Analytics loads before any decision; Hotjar waits for Accept all. */
export const firstReport = ScanReport.parse({
  version: 1,
  origin: shopOrigin,
  startedAt: "2026-11-16T09:00:00.000Z",
  finishedAt: "2026-11-16T09:00:41.000Z",
  database,
  pages: [
    { url: home, status: "ok", error: null },
    { url: products, status: "ok", error: null },
    { url: `${shopOrigin}/slow`, status: "error", error: { code: "timeout", detail: "The page did not settle within 15 s." } },
  ],
  cookies: [sessionCookie, ga, gaStream],
  storage: [hotjar, cart],
  thirdPartyHosts: [gtmHost],
  elements: [
    { kind: "script", src: gtm, gatedBy: null, category: "analytics", vendor: "Google Tag Manager", firstSeen: "before-consent", pages: [home, products] },
  ],
  violations: [gtmViolation, gaViolation, { ...gaViolation, item: "_ga_ABC123" }],
  proposal: {
    purposes: [analyticsPurpose],
    gating: [{ kind: "script", src: gtm, category: "analytics", markup: `<script type="text/plain" data-assent-purpose="analytics" src="${gtm}"></script>` }],
    hosts: [{ host: "www.googletagmanager.com", category: "analytics" }],
  },
});

/** A week later: Meta's pixel fires before consent and keeps its cookie after Reject all; Hotjar is gone. */
export const secondReport = ScanReport.parse({
  ...firstReport,
  startedAt: "2026-11-23T09:00:00.000Z",
  finishedAt: "2026-11-23T09:00:39.000Z",
  pages: firstReport.pages.slice(0, 2),
  cookies: [sessionCookie, ga, gaStream, fbp],
  storage: [cart],
  thirdPartyHosts: [gtmHost, metaHost],
  elements: [
    ...firstReport.elements,
    { kind: "script", src: "https://connect.facebook.net/en_US/fbevents.js", gatedBy: null, category: "marketing", vendor: "Meta", firstSeen: "before-consent", pages: [home] },
  ],
  violations: [
    { kind: "before-consent", itemType: "cookie", item: "_fbp", category: "marketing", page: home, initiator: "https://connect.facebook.net/en_US/fbevents.js" },
    { kind: "after-reject", itemType: "request", item: "connect.facebook.net", category: "marketing", page: home, initiator: home },
    ...firstReport.violations,
  ],
  proposal: {
    purposes: [{ ...analyticsPurpose, items: 3 }, marketingPurpose],
    gating: [
      ...firstReport.proposal.gating,
      {
        kind: "script",
        src: "https://connect.facebook.net/en_US/fbevents.js",
        category: "marketing",
        markup: '<script type="text/plain" data-assent-purpose="marketing" src="https://connect.facebook.net/en_US/fbevents.js"></script>',
      },
    ],
    hosts: [...firstReport.proposal.hosts, { host: "connect.facebook.net", category: "marketing" }],
  },
});
