import { scanPassHeader } from "../../shared/scans/pass";
import { z } from "@hono/zod-openapi";
import { Timestamp } from "../lib/schemas";
import { ScanReport, ScannedCookie, ScannedStorageKey, ThirdPartyHost, Violation } from "../../shared/scans/report";
import { scanSchedules, scanStatuses, scanTriggers, type scans } from "./table";

/** An http(s) URL's origin (`https://shop.example`), as the crawl and the registered origins spell it; undefined otherwise. */
export function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

const SiteOrigin = z
  .string()
  .max(2048)
  .refine((value) => originOf(value) !== undefined, "An http(s) URL, such as https://shop.example.")
  .openapi({ example: "https://shop.example", description: "The site to scan: one of the origins the project's web clients list (`allowedOrigins`). A path is ignored." });

export const ScanInput = z
  .strictObject({
    report: ScanReport.optional().openapi({ description: "A report made elsewhere (`npm run scan -- <url> --project <id>`), stored as it is." }),
    origin: SiteOrigin.optional(),
    passId: z
      .string()
      .regex(/^spa_[0-9A-HJKMNP-TV-Z]{26}$/, "A scan pass's id, as POST …/scan-passes returned it.")
      .optional()
      .openapi({
        description:
          "With `report`: the scan pass the crawl carried (`npm run scan` sends it). The identities its visits made in the project are " +
          "deleted once the report is stored (docs/scanner.md#scanning-a-site-that-runs-assent).",
        example: "spa_01JD7W2H8Q5V3N6X9B1C4E7F2G",
      }),
  })
  .superRefine((input, ctx) => {
    if (input.passId !== undefined && input.report === undefined) {
      ctx.addIssue({ code: "custom", path: ["passId"], message: "`passId` comes with an uploaded `report`: a scan the Worker runs has its own pass." });
    }
    if ((input.report === undefined) === (input.origin === undefined)) {
      ctx.addIssue({ code: "custom", path: [], message: "Send either `report` (an uploaded scan) or `origin` (a scan the Worker runs), not both." });
    }
    if (input.report && originOf(input.report.origin) === undefined) {
      ctx.addIssue({ code: "custom", path: ["report", "origin"], message: "The report's origin must be an http(s) URL." });
    }
  })
  .openapi("ScanInput", { description: "Exactly one of `report` and `origin`." });

// Not a named component: a nullable reference to one loses its null in the generated types.
export const ScanCounts = z
  .object({
    pages: z.number().int(),
    pageErrors: z.number().int().openapi({ description: "Pages that could not be scanned (their `error` says why)." }),
    cookies: z.number().int(),
    storage: z.number().int(),
    thirdPartyHosts: z.number().int(),
    violations: z.number().int(),
    newItems: z.number().int().openapi({ description: "Cookies, storage keys and third-party hosts the previous completed scan of the origin did not have." }),
    newViolations: z.number().int().openapi({ description: "Violations the previous completed scan of the origin did not have." }),
  });

export const Scan = z
  .object({
    scanId: z.string().openapi({ example: "scn_01JD7W2H8Q5V3N6X9B1C4E7F2G" }),
    projectId: z.string(),
    origin: z.string().openapi({ example: "https://shop.example" }),
    trigger: z.enum(scanTriggers).openapi({ description: "`api`: an uploaded report; `schedule`: the cron; `portal`: the portal's Run a scan." }),
    status: z.enum(scanStatuses).openapi({ description: "`queued` and `running` only for scans the Worker runs; uploads are `completed` at once." }),
    problem: z
      .object({ code: z.string(), detail: z.string() })
      .nullable()
      .openapi({ description: "Why a `failed` scan failed; null otherwise." }),
    created: Timestamp,
    started: Timestamp.nullable(),
    completed: Timestamp.nullable(),
    counts: ScanCounts.nullable().openapi({ description: "Null until the scan completed." }),
  })
  .openapi("Scan");

export const UploadedScan = Scan.extend({
  visitorsRemoved: z.number().int().openapi({ description: "Identities the scan's visits made under its `passId`, now deleted (0 without one)." }),
}).openapi("UploadedScan");

export const ScanPass = z
  .object({
    passId: z.string().openapi({ example: "spa_01JD7W2H8Q5V3N6X9B1C4E7F2G" }),
    pass: z.string().openapi({ description: "The signed pass: the header's value." }),
    header: z.literal(scanPassHeader).openapi({ description: "The request header that carries the pass to this service." }),
    expiresIn: z.number().int().openapi({ description: "Seconds the pass stays valid.", example: 3600 }),
  })
  .openapi("ScanPass");

const DiffItems = z.object({
  cookies: z.array(ScannedCookie),
  storage: z.array(ScannedStorageKey),
  thirdPartyHosts: z.array(ThirdPartyHost),
  violations: z.array(Violation),
});

export const ScanDiff = z
  .object({
    previousScanId: z.string().nullable().openapi({ description: "The previous completed scan of the same origin; null for the first (everything is new)." }),
    new: DiffItems.openapi({ description: "Items of this scan the previous one did not have." }),
    gone: DiffItems.openapi({ description: "Items of the previous scan this one no longer has." }),
  })
  .openapi("ScanDiff", {
    description:
      "Cookies compare by name, domain and path; storage keys by area, origin and name; hosts by host; violations by kind, item type and item (not page).",
  });

// Left out rather than null until the scan completed: a nullable reference to a named schema loses its null in the
// generated types.
export const ScanWithReport = Scan.extend({
  report: ScanReport.optional().openapi({ description: "Once the scan completed." }),
  diff: ScanDiff.optional().openapi({ description: "Once the scan completed." }),
}).openapi("ScanWithReport");

export const ScanList = z
  .object({
    items: z.array(Scan).openapi({ description: "Newest first." }),
    next: z.string().nullable().openapi({ description: "Pass as `before` for the next page; null on the last." }),
  })
  .openapi("ScanList");

export const ScanListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50).openapi({ example: 50 }),
  before: z.string().max(64).optional().openapi({ description: "A scan id: only scans created before it (the previous page's `next`)." }),
});

export const ScanSettings = z
  .strictObject({
    schedule: z.enum(scanSchedules).openapi({ description: "How often the cron scans each of the project's registered origins; `weekly` until set." }),
  })
  .openapi("ScanSchedule");

export const toScan = (row: Omit<typeof scans.$inferSelect, "report">): z.infer<typeof Scan> => ({
  scanId: row.id,
  projectId: row.projectId,
  origin: row.origin,
  trigger: row.trigger,
  status: row.status,
  problem: row.problem ?? null,
  created: row.created,
  started: row.started ?? null,
  completed: row.completed ?? null,
  counts: row.counts ?? null,
});

export const EssentialMarkName = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[^\s;,=\u0000-\u001f]+$/, "A cookie or storage key name (no spaces, `;`, `,` or `=`); a trailing `*` covers every name it begins.")
  .openapi({ example: "PHPSESSID" });

export const EssentialMarkInput = z
  .strictObject({ reason: z.string().trim().min(1).max(500).openapi({ example: "The shop's session: the cart and the checkout need it." }) })
  .openapi("EssentialMarkInput");

export const EssentialMark = z
  .object({ name: EssentialMarkName, reason: z.string(), created: Timestamp })
  .openapi("EssentialMark", {
    description:
      "A cookie or storage key the project marked essential: every report stored afterwards shows it as `necessary` with this reason as its `source`, and flags it nowhere.",
  });

export const EssentialMarkList = z.object({ items: z.array(EssentialMark) }).openapi("EssentialMarkList");
