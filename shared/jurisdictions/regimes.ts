/** The consent regimes, from the strictest: what a jurisdiction's rule names, and what a browser signal means under each. */
export const regimes = ["opt-in", "opt-out", "notice"] as const;
export type Regime = (typeof regimes)[number];
