import { z } from "@hono/zod-openapi";
import { consentTypes } from "../consent-mode/types.ts";

/**
 * The scan report: what a site sets and loads before a decision, after "Accept all" and after "Reject all".
 * One shape for the CLI's `--json` file, `POST …/scans` and the portal, so a report moves between them unchanged.
 * Additive changes only: consumers may keep old reports (the portal diffs against the previous scan).
 */

/** Where an item was first seen: the three clean browser contexts each page is visited in, in this order. */
export const visitPhases = ["before-consent", "after-accept", "after-reject"] as const;
const FirstSeen = z.enum(visitPhases).openapi({
  description: "The first visit the item appeared in: no decision (banner open), after Accept all, after Reject all.",
});

/** The scanner's categories: the vendor catalogue's purposes and the Open Cookie Database's categories mapped, plus what neither names. */
export const scanCategories = ["necessary", "functional", "analytics", "marketing", "personalization", "security", "unclassified"] as const;
const Category = z.enum(scanCategories).openapi({
  description:
    "`necessary` and `security` are essential. The vendor catalogue's purpose where it knows the item, else the Open Cookie Database's category as its README defines it " +
    "(Functional, \"strictly necessary\", → `necessary`; Personalization → `personalization`), or `necessary` where the project marked the item essential; " +
    "`unclassified` when nothing matches. Unknown items are listed, never dropped.",
});

const Pages = z.array(z.string()).openapi({ description: "The page URLs the item was seen on." });

const Classification = {
  category: Category,
  vendor: z.string().nullable().openapi({ description: "The platform the database names (\"Google Analytics\"), or null.", example: "Google Analytics" }),
  source: z
    .string()
    .nullable()
    .optional()
    .openapi({
      description:
        "What gave the category: `vendor catalogue: <vendor>`, `Open Cookie Database: <its category>`, `marked essential by the project: <reason>`, `Assent`, …; null when nothing matched (reports made before it have none).",
      example: "Open Cookie Database: Functional",
    }),
  firstSeen: FirstSeen,
  pages: Pages,
};

export const ScannedCookie = z
  .object({
    name: z.string().openapi({ example: "_ga_ABC123" }),
    domain: z.string(),
    path: z.string(),
    expires: z.number().nullable().openapi({ description: "Unix seconds; null for a session cookie." }),
    party: z.enum(["first", "third"]),
    httpOnly: z.boolean(),
    secure: z.boolean(),
    sameSite: z.enum(["Strict", "Lax", "None"]),
    ...Classification,
  })
  .openapi("ScannedCookie");

export const ScannedStorageKey = z
  .object({
    name: z.string().openapi({ example: "_hjSessionUser_1" }),
    area: z.enum(["localStorage", "sessionStorage", "indexedDB"]),
    origin: z.string(),
    ...Classification,
  })
  .openapi("ScannedStorageKey");

export const ThirdPartyHost = z
  .object({
    host: z.string().openapi({ example: "www.googletagmanager.com" }),
    resourceTypes: z.array(z.string()).openapi({ description: "Playwright resource types seen: script, image, sub_frame (as `iframe`), xhr, fetch, beacon, …" }),
    initiators: z.array(z.string()).openapi({ description: "URLs of the scripts that started the requests, where the browser knows them." }),
    ...Classification,
  })
  .openapi("ThirdPartyHost");

export const ScannedElement = z
  .object({
    kind: z.enum(["script", "iframe"]),
    src: z.string(),
    gatedBy: z.string().nullable().openapi({ description: "The `data-assent-purpose` the element is already gated by, or null." }),
    ...Classification,
  })
  .openapi("ScannedElement");

export const violationKinds = ["before-consent", "after-reject"] as const;
export const Violation = z
  .object({
    kind: z.enum(violationKinds).openapi({ description: "`before-consent`: non-essential and seen with no decision; `after-reject`: still set or requested after Reject all." }),
    itemType: z.enum(["cookie", "storage", "request"]),
    item: z.string().openapi({ description: "The cookie or storage key name, or the requested host." }),
    category: Category,
    page: z.string(),
    initiator: z.string().nullable().openapi({ description: "The script URL that set or requested it, where known." }),
  })
  .openapi("ScanViolation");

export const ProposedPurpose = z
  .object({
    category: Category,
    name: z.string().openapi({ example: "Analytics" }),
    consentModeTypes: z.array(z.enum(consentTypes)),
    items: z.number().int().openapi({ description: "How many cookies, storage keys and hosts fall under it." }),
  })
  .openapi("ProposedPurpose");

export const ScanProposal = z
  .object({
    purposes: z.array(ProposedPurpose).openapi({ description: "Purposes to create, one per non-essential category found." }),
    gating: z
      .array(z.object({ kind: z.enum(["script", "iframe"]), src: z.string(), category: Category, markup: z.string() }))
      .openapi({ description: "Markup that gates each ungated script and iframe: `type=\"text/plain\" data-assent-purpose=…` (iframes: `data-src`)." }),
    hosts: z
      .array(z.object({ host: z.string(), category: Category }))
      .openapi({
        description:
          "The host→purpose list the widget can block by: each non-essential host of a known category, under the purpose proposed for that category. Unclassified hosts are left out: they need the operator's decision (they are in `thirdPartyHosts`).",
      }),
  })
  .openapi("ScanProposal");

export const ScannedPage = z
  .object({
    url: z.string(),
    status: z.enum(["ok", "error"]),
    error: z
      .object({ code: z.string(), detail: z.string() })
      .nullable()
      .openapi({ description: "Why this page could not be scanned (`unreachable`, `redirect_loop`, `timeout`, `too_large`, `robots_disallowed`, …); the scan goes on with the rest." }),
    scanned: z
      .boolean()
      .optional()
      .openapi({
        description:
          "Whether every pass saw the page as asked. False when a pass could not load it (`unreachable`, `timeout`, `redirect_loop`, `too_large`, `navigation_failed`, `navigation_refused`, `aborted`), " +
          "its decision was not recorded (`decision_not_recorded`), it answered 5xx, or it is the start page and answered 4xx. A page robots.txt disallows, a 404 link, or a page that fought the crawler (popups, dialogs, endless scroll) was seen as it is.",
      }),
    passes: z
      .array(z.object({ phase: FirstSeen, did: z.string() }))
      .optional()
      .openapi({ description: "What each visit of the page did, in words: the decision made and how (on an opt-out or notice banner, through \"Your privacy choices\"), or why none was." }),
  })
  .openapi("ScannedPage");

export const RefusedCookie = z
  .object({
    name: z.string().openapi({ example: "px_nosec" }),
    domain: z.string(),
    reason: z.string().openapi({ description: "Why no browser keeps it.", example: "SameSite=None without Secure: browsers refuse it" }),
    initiator: z.string().nullable(),
    firstSeen: FirstSeen,
    pages: Pages,
  })
  .openapi("RefusedCookie");

export const ScanReport = z
  .object({
    version: z.literal(1),
    origin: z.string().openapi({ example: "https://shop.example" }),
    startedAt: z.string(),
    finishedAt: z.string(),
    database: z.object({ name: z.string(), revision: z.string() }).openapi({ description: "The cookie database the categories come from." }),
    pages: z.array(ScannedPage),
    complete: z
      .boolean()
      .optional()
      .openapi({ description: "Whether every page of `pages` was scanned (`scanned`); the CLI exits 3 when not. How sure the report is: items on pages not scanned are missing from it." }),
    cookies: z.array(ScannedCookie),
    refusedCookies: z
      .array(RefusedCookie)
      .optional()
      .openapi({ description: "Cookies pages tried to set that no browser keeps (SameSite=None without Secure, a third party's cookie without SameSite=None, an invalid domain): listed apart, never a violation." }),
    storage: z.array(ScannedStorageKey),
    thirdPartyHosts: z.array(ThirdPartyHost),
    elements: z.array(ScannedElement),
    violations: z.array(Violation),
    proposal: ScanProposal,
  })
  .openapi("ScanReport");

export type ScanReport = z.infer<typeof ScanReport>;
