import { z } from "@hono/zod-openapi";
import { shown } from "./reports";
import { difference, wilson } from "./stats";
import type { bannerExperiments } from "./table";

const Rate = z.object({ rate: z.number(), low: z.number(), high: z.number() }).nullable();
const Compared = z
  .object({ pValue: z.number().nullable(), real: z.boolean() })
  .nullable()
  .openapi({ description: "Against the control (null for the control itself)." });
const Share = z.object({ share: Rate, vsControl: Compared });

export const ExperimentResults = z
  .object({
    experimentId: z.string(),
    from: z.string(),
    to: z.string(),
    variants: z.array(
      z.object({
        name: z.string(),
        shown: z.number().int().nullable(),
        acceptAll: Share,
        rejectAll: Share,
        decided: Share,
        purposes: z.array(z.object({ purposeId: z.string(), optIn: Share })),
      }),
    ),
  })
  .openapi("BannerExperimentResults");

type Tally = { shown: number; accept_all: number; reject_all: number; customised: number; purposes: Map<string, { granted: number; refused: number }> };

/**
 * Each variant's counts over the experiment's days, and its shares against the control's. Only the project's live
 * purposes: a beacon may name any purpose id, and one that is not the project's is no result.
 */
export async function readResults(d1: D1Database, experiment: typeof bannerExperiments.$inferSelect) {
  const from = (experiment.started ?? experiment.created).slice(0, 10);
  const to = (experiment.stopped ?? new Date().toISOString()).slice(0, 10);
  const names = experiment.variants.map((v) => v.name);
  const { results } = await d1
    .prepare(
      `SELECT variant, event, purpose_id, sum(count) AS n FROM analytics_counts
       WHERE project_id = ? AND day >= ? AND day <= ? AND variant IN (${names.map(() => "?").join(", ")})
         AND (purpose_id = '' OR purpose_id IN (SELECT id FROM purposes WHERE project_id = ? AND deleted IS NULL))
       GROUP BY variant, event, purpose_id`,
    )
    .bind(experiment.projectId, from, to, ...names, experiment.projectId)
    .all<{ variant: string; event: string; purpose_id: string; n: number }>();
  const tallies = new Map<string, Tally>(names.map((name) => [name, { shown: 0, accept_all: 0, reject_all: 0, customised: 0, purposes: new Map() }]));
  for (const row of results) {
    const tally = tallies.get(row.variant)!;
    if (row.purpose_id) {
      const cell = tally.purposes.get(row.purpose_id) ?? { granted: 0, refused: 0 };
      cell[row.event === "granted" ? "granted" : "refused"] += row.n;
      tally.purposes.set(row.purpose_id, cell);
    } else if (row.event === "banner_shown") tally.shown += row.n;
    else if (row.event in tally) tally[row.event as "accept_all" | "reject_all" | "customised"] += row.n;
  }
  const control = tallies.get(names[0])!;
  const share = (successes: number, trials: number, against: { successes: number; trials: number } | null) => ({
    share: shown(successes) === null || shown(trials) === null ? null : wilson(successes, trials),
    vsControl: against ? difference({ successes, trials }, against) : null,
  });
  const purposeIds = [...new Set([...tallies.values()].flatMap((t) => [...t.purposes.keys()]))].sort();
  return {
    experimentId: experiment.id,
    from,
    to,
    variants: names.map((name, i) => {
      const t = tallies.get(name)!;
      const vs = (pick: (x: Tally) => number) => (i === 0 ? null : { successes: pick(control), trials: control.shown });
      const decided = (x: Tally) => x.accept_all + x.reject_all + x.customised;
      return {
        name,
        shown: shown(t.shown),
        acceptAll: share(t.accept_all, t.shown, vs((x) => x.accept_all)),
        rejectAll: share(t.reject_all, t.shown, vs((x) => x.reject_all)),
        decided: share(decided(t), t.shown, vs(decided)),
        purposes: purposeIds.map((purposeId) => {
          const cell = t.purposes.get(purposeId) ?? { granted: 0, refused: 0 };
          const base = control.purposes.get(purposeId) ?? { granted: 0, refused: 0 };
          const against = i === 0 ? null : { successes: base.granted, trials: base.granted + base.refused };
          return { purposeId, optIn: share(cell.granted, cell.granted + cell.refused, against) };
        }),
      };
    }),
  };
}
