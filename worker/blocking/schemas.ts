import { z } from "@hono/zod-openapi";
import { parse } from "tldts";
import { isRule, ruleParts } from "../../shared/blocking/hosts";
import { vendorById } from "../../shared/vendors/catalogue";
import { vendorPurposes } from "../../shared/vendors/types";
import { consentTypes } from "../consent-mode/settings";
import { ReferenceId } from "../lib/schemas";
import { blockingSources } from "./table";

/**
 * Whether a rule's host is a public suffix of the Public Suffix List (`com`, `co.uk`, `github.io`, with or without
 * `*.`): such a rule would hold back every site registered under it, so the list refuses it. Names the list does not
 * know (`example`, `test`) are not suffixes here; the own-origin check covers those.
 */
function isPublicSuffixRule(rule: string): boolean {
  const host = ruleParts(rule)[0].replace(/^\*\./, "");
  const { domain, isIcann, isPrivate } = parse(host, { allowPrivateDomains: true });
  return domain === null && Boolean(isIcann || isPrivate);
}

/** Entries a project's list holds at most. */
export const maxBlockingEntries = 500;

export const BlockingEntry = z
  .strictObject({
    host: z
      .string()
      .max(255)
      .refine(isRule, {
        message:
          "A lowercase host name (`connect.facebook.net`), optionally with one leading `*.` label and a path prefix (`www.google.com/maps/embed`); no scheme, port, query or IP address.",
        params: { code: "invalid_host" },
      })
      .refine((rule) => !isPublicSuffixRule(rule), {
        message: "A public suffix (`com`, `co.uk`, `github.io`), alone or under `*.`: it would hold back every site registered under it. Name the tracker's own domain.",
        params: { code: "public_suffix" },
      })
      .openapi({
        description: "A host pattern, optionally followed by a path prefix that the URL's path must start with (`www.google.com/maps/embed`).",
        example: "connect.facebook.net",
      }),
    purpose: ReferenceId.openapi({ description: "The referenceId of one of the project's purposes.", example: "marketing" }),
    source: z.enum(blockingSources).openapi({ description: "Where the entry came from: the scanner's proposal, the vendor catalogue, or added by hand." }),
    vendor: z
      .string()
      .refine((id) => vendorById.has(id), { message: "Not a vendor of the catalogue (`GET /admin/v1/vendors`).", params: { code: "unknown_vendor" } })
      .optional()
      .openapi({ description: "The catalogue vendor whose host this is.", example: "meta-pixel" }),
  })
  .openapi("BlockingEntry");

export const BlockingList = z
  .strictObject({
    enabled: z.boolean().openapi({ description: "Whether the widget's classic loader holds back what the list names." }),
    entries: z
      .array(BlockingEntry)
      .max(maxBlockingEntries)
      .superRefine((entries, ctx) => {
        const seen = new Set<string>();
        entries.forEach(({ host }, index) => {
          if (seen.has(host)) ctx.addIssue({ code: "custom", path: [index, "host"], message: `${host} is listed twice.`, params: { code: "duplicate_host" } });
          seen.add(host);
        });
      }),
  })
  .openapi("BlockingList", {
    description:
      "The project's host → purpose list: scripts, iframes and image pixels from these hosts are held back on the page until " +
      "their purpose is approved (docs/blocking.md#the-blocking-list).",
  });
export type BlockingList = z.infer<typeof BlockingList>;

export const Vendor = z
  .object({
    id: z.string().openapi({ example: "meta-pixel" }),
    name: z.string().openapi({ example: "Meta Pixel" }),
    company: z.string().openapi({ description: "Who receives the data.", example: "Meta Platforms" }),
    privacyPolicy: z.string().openapi({ example: "https://www.facebook.com/privacy/policy/" }),
    hosts: z.array(z.string()).openapi({ description: "Host patterns its scripts, iframes and pixels load from.", example: ["connect.facebook.net"] }),
    cookies: z.array(z.string()).openapi({ description: "Cookie names it sets; a trailing `*` is a prefix.", example: ["_fbp", "_fbc"] }),
    purpose: z.enum(vendorPurposes).openapi({ description: "The purpose its tags serve by default." }),
    consentModeTypes: z.array(z.enum(consentTypes)).openapi({ description: "The Google Consent Mode v2 types that purpose stands for." }),
    servedBy: z.string().nullable().openapi({ description: "The vendor whose hosts serve this one's script (gtag.js from Google Tag Manager's host); list its hosts too." }),
    cookieless: z.boolean().openapi({ description: "Measures without cookies or personal data." }),
    embed: z.enum(["video", "map", "audio"]).nullable().openapi({ description: "Content shown in an iframe, which gets a click-to-load placeholder." }),
    consentCall: z.boolean().openapi({ description: "Whether the widget calls the vendor's own consent API on every decision." }),
    consentCallDescription: z.string().nullable().openapi({ example: "fbq('consent', 'grant'|'revoke')" }),
  })
  .openapi("Vendor");

export const VendorList = z.object({ vendors: z.array(Vendor) }).openapi("VendorList");
