import { z } from "@hono/zod-openapi";
import { TCString } from "@iabtechlabtcf/core";

/**
 * The TCF strings a decision may carry in `meta.context` (docs/tcf.md#recorded-with-the-decision), checked with IAB's
 * library before anything is stored: a string that does not decode, is not a v2 TC string, or lacks the
 * `disclosedVendors` segment TCF 2.3 makes mandatory answers 400 with the field's code.
 */

/** The TC string's segments are base64url, joined by `.`; the longest real ones (every GVL vendor, restrictions) stay far below this. */
const maxLength = 16_384;

const base64url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/** A segment's type: its first three bits (TC string spec, "Segment types": 1 disclosedVendors, 2 allowedVendors, 3 publisherTC). */
const segmentType = (segment: string) => base64url.indexOf(segment[0]!) >> 3;

function tcStringProblem(value: string): string | undefined {
  try {
    const model = TCString.decode(value);
    if (model.version !== 2) return `a TC string of version ${model.version}, not 2`;
    if (!model.isServiceSpecific) return "a global-scope TC string: Assent writes service-specific ones";
    if (!value.split(".").slice(1).some((segment) => segmentType(segment) === 1)) return "no disclosedVendors segment (mandatory from TCF 2.3)";
    return undefined;
  } catch (error) {
    return `not a TC string (${error instanceof Error ? error.message : String(error)})`;
  }
}

export const TcStringField = z
  .string()
  .max(maxLength)
  .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, "base64url segments joined by '.'")
  .superRefine((value, ctx) => {
    const problem = tcStringProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem, params: { code: "invalid_tc_string" } });
  })
  .openapi({ description: "The IAB TCF 2.3 TC string the widget wrote for this decision (service-specific, with disclosedVendors).", example: "CQua5aAQua5aAEsABBENB4FgAPIAAELAACQgF5wAgAFALzAvOAEAAoBeYAAA.IF5wAgAFALzA" });

export const AcStringField = z
  .string()
  .max(maxLength)
  .regex(/^2~(\d+(\.\d+)*)?~dv\.(\d+(\.\d+)*)?$/, "Google's Additional Consent string v2: 2~{consented ids}~dv.{disclosed ids}")
  .openapi({ description: "Google's Additional Consent string (v2) written with the TC string: the consented providers, then the other disclosed ones.", example: "2~1.89~dv.2677" });
