import type { WidgetFeature } from "../../shared/browser/features";

/** What the bootstrap knows when it decides which optional parts the page loads. */
export type FeatureContext = { gppSections: readonly string[]; regime: string; tcfEnabled: boolean; counting: boolean };

/** When a page needs each of the widget's optional parts: one rule per part. */
const neededWhen: Record<WidgetFeature, (context: FeatureContext) => boolean> = {
  gpp: ({ gppSections }) => gppSections.length > 0,
  // TCF where the project has it on and the visitor is asked before anything runs: the GDPR's places (docs/tcf.md#where-tcf-applies).
  tcf: ({ tcfEnabled, regime }) => tcfEnabled && regime === "opt-in",
  // Where the project counts, which it does unless turned off: aggregate counts need no consent
  // (docs/analytics.md#why-counting-needs-no-consent).
  analytics: ({ counting }) => counting,
};

export function featuresFor(context: FeatureContext): WidgetFeature[] {
  return (Object.keys(neededWhen) as WidgetFeature[]).filter((name) => neededWhen[name](context));
}
