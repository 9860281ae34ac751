/** The normal quantile of a two-sided 95% interval. */
const z95 = 1.959963984540054;

export type Rate = { rate: number; low: number; high: number };

/**
 * The share `successes / trials` with its 95% Wilson score interval: unlike the normal approximation it stays inside
 * [0, 1] and holds for small counts and rates near 0 or 1, which opt-in rates often are. No trials: null.
 */
export function wilson(successes: number, trials: number): Rate | null {
  if (trials <= 0) return null;
  const p = successes / trials;
  const z2 = z95 * z95;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z95 * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / (1 + z2 / trials);
  const round = (x: number) => Math.round(x * 10_000) / 10_000;
  return { rate: round(p), low: round(Math.max(0, centre - half)), high: round(Math.min(1, centre + half)) };
}

/**
 * Whether two rates differ beyond chance: a two-sided two-proportion z-test (pooled) at the 5% level, with its
 * p-value. Small samples (fewer than 5 expected successes or failures on a side) are never called real.
 */
export function difference(a: { successes: number; trials: number }, b: { successes: number; trials: number }) {
  if (a.trials === 0 || b.trials === 0) return { pValue: null, real: false };
  const pooled = (a.successes + b.successes) / (a.trials + b.trials);
  const enough = [a, b].every((s) => s.trials * pooled >= 5 && s.trials * (1 - pooled) >= 5);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.trials + 1 / b.trials));
  if (se === 0) return { pValue: 1, real: false };
  const zScore = (a.successes / a.trials - b.successes / b.trials) / se;
  const pValue = Math.round(2 * (1 - normalCdf(Math.abs(zScore))) * 10_000) / 10_000;
  return { pValue, real: enough && pValue < 0.05 };
}

/** The standard normal distribution function (Abramowitz and Stegun 7.1.26, error below 1.5e-7). */
function normalCdf(x: number): number {
  const t = 1 / (1 + 0.3275911 * (x / Math.SQRT2));
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return 0.5 * (1 + (1 - poly * Math.exp(-(x * x) / 2)));
}
