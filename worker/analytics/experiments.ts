import { z } from "@hono/zod-openapi";
import { ApiError } from "../lib/errors";
import { VariantName } from "./schemas";
import type { VariantDefinition } from "./table";

/** How a first-layer button is drawn: filled with the accent (the widget's default), outlined, or underlined text. */
export const ButtonStyle = z.enum(["primary", "secondary", "link"]);
/** The words a variant may change, per language: the first layer's. */
const wordingKeys = ["noticeOptIn", "acceptAll", "rejectAll", "customize"] as const;

export const VariantInput = z
  .strictObject({
    name: VariantName,
    weight: z.number().int().min(1).max(100).default(1).openapi({ description: "Share of visitors, relative to the other variants' weights." }),
    layout: z.strictObject({
      rejectAll: z.enum(["first-layer", "preferences-only"]).openapi({ description: "Where Reject all is offered." }),
      accept: ButtonStyle.openapi({ description: "How Accept all is drawn." }),
      reject: ButtonStyle.openapi({ description: "How Reject all is drawn." }),
      preChecked: z.array(z.string().regex(/^pur_[0-9A-Z]{26}$/)).max(50).default([]).openapi({ description: "Purposes ticked before the visitor acts." }),
    }),
    wording: z
      .record(z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/), z.partialRecord(z.enum(wordingKeys), z.string().trim().min(1).max(1000)))
      .default({})
      .openapi({ description: "Per language, the first layer's words this variant uses instead of the project's." }),
  })
  .openapi("BannerVariant");

export const ExperimentInput = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    variants: z
      .array(VariantInput)
      .min(2)
      .max(5)
      .refine((variants) => new Set(variants.map((v) => v.name)).size === variants.length, "Variant names must differ.")
      .openapi({ description: "The first variant is the control the others are compared with." }),
  })
  .openapi("BannerExperimentInput");

/**
 * The guardrails every variant must pass before its experiment may start, as the EDPB's cookie banner taskforce
 * reads the law (report of 17 January 2023): refusing is as easy as accepting, on the same layer and with the same
 * prominence, and nothing is ticked for the visitor. Data, one row each: a new rule is a new row.
 */
export const guardrails: { code: string; rule: string; holds: (v: VariantDefinition) => boolean }[] = [
  { code: "reject_on_first_layer", rule: "Reject all is offered on the first layer, beside Accept all.", holds: (v) => v.layout.rejectAll === "first-layer" },
  {
    code: "equal_prominence",
    rule: "Reject all is drawn exactly as Accept all (same style, so the same size and contrast).",
    holds: (v) => v.layout.reject === v.layout.accept,
  },
  { code: "no_pre_ticked_purpose", rule: "No purpose is ticked before the visitor acts.", holds: (v) => v.layout.preChecked.length === 0 },
];

/** The guardrails each variant fails, as field errors; empty when every variant passes. */
export const guardrailFailures = (variants: VariantDefinition[]) =>
  variants.flatMap((variant, i) =>
    guardrails.filter((g) => !g.holds(variant)).map((g) => ({ path: `variants.${i}`, code: g.code, message: `${variant.name}: ${g.rule}` })),
  );

/** Refuses to start an experiment any of whose variants fails a guardrail: 422 `variant_not_compliant`, naming each. */
export function requireCompliant(variants: VariantDefinition[]) {
  const errors = guardrailFailures(variants);
  if (errors.length) {
    throw new ApiError(422, "variant_not_compliant", "A variant fails a guardrail, so the experiment cannot start; see `errors`.", { errors });
  }
}

/**
 * The variant a visitor sees: the first 32 bits of SHA-256(`experimentId:visitor`) as a point in [0, 1), mapped over
 * the variants' weights. `visitor` is the identity of the visitor token the page already holds, so assignment needs no
 * identifier of its own, stays the same on every page view of that visitor, and changes with each experiment.
 */
export async function assignVariant(experimentId: string, visitor: string, variants: Pick<VariantDefinition, "name" | "weight">[]): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${experimentId}:${visitor}`)));
  const point = (((digest[0] << 24) | (digest[1] << 16) | (digest[2] << 8) | digest[3]) >>> 0) / 2 ** 32;
  const total = variants.reduce((sum, v) => sum + v.weight, 0);
  let edge = 0;
  for (const variant of variants) {
    edge += variant.weight / total;
    if (point < edge) return variant.name;
  }
  return variants[variants.length - 1].name;
}
