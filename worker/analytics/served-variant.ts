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
 * identifier of its own) and the words it changes, applied to the widget's words for `language` here, so the widget
 * draws a variant with no code of its own. A variant's words in another language than the visitor's leave the
 * project's words in place. Guardrails keep the layout of a running variant to what every variant shares (Reject all
 * on the first layer, drawn as Accept all, nothing ticked), which the widget draws as it always does.
 */
export async function servedVariant(
  experiment: { id: string; variants: VariantDefinition[] } | undefined,
  identityId: string | undefined,
  language: string,
  strings: Record<string, string>,
): Promise<{ variant?: string; strings: Record<string, string> }> {
  if (!experiment || !identityId) return { strings };
  const name = await assignVariant(experiment.id, identityId, experiment.variants);
  const variant = experiment.variants.find((v) => v.name === name)!;
  return { variant: name, strings: { ...strings, ...variant.wording[language] } };
}
