import { and, eq } from "drizzle-orm";
import type { Db } from "../lib/db";
import { assignVariant } from "./experiments";
import { bannerExperiments, type VariantDefinition } from "./table";

/** The project's running experiment, if any: read in the bootstrap's one batch (at most one runs per project). */
export const runningExperimentQuery = (db: Db, projectId: string) =>
  db
    .select({ id: bannerExperiments.id, variants: bannerExperiments.variants })
    .from(bannerExperiments)
    .where(and(eq(bannerExperiments.projectId, projectId), eq(bannerExperiments.status, "running")))
    .limit(1);

/**
 * What a visitor of a running experiment is served: their variant (by the identity of their visitor token, so no
 * identifier of its own), the words it changes, applied to the widget's words for `language` here, and the style
 * its first layer's buttons are drawn in. A variant's words in another language than the visitor's leave the
 * project's words in place. One style serves every first-layer button: the guardrails let a variant start only with
 * Reject all drawn as Accept all (and with Reject all on the first layer, nothing ticked, as the widget always draws
 * it), and Customize takes the same style so that neither answer is made to look like the way forward.
 */
export async function servedVariant(
  experiment: { id: string; variants: VariantDefinition[] } | undefined,
  identityId: string | undefined,
  language: string,
  strings: Record<string, string>,
): Promise<{ variant?: string; buttons?: VariantDefinition["layout"]["accept"]; strings: Record<string, string> }> {
  if (!experiment || !identityId) return { strings };
  const name = await assignVariant(experiment.id, identityId, experiment.variants);
  const variant = experiment.variants.find((v) => v.name === name)!;
  return { variant: name, buttons: variant.layout.accept, strings: { ...strings, ...variant.wording[language] } };
}
