/**
 * The widget's optional parts: each is a chunk of its own that a page loads only where the bootstrap names it
 * (`features`), so the eager `assent.js` carries one generic line for all of them instead of one per part.
 */
export const widgetFeatures = ["gpp", "tcf", "analytics"] as const;
export type WidgetFeature = (typeof widgetFeatures)[number];
