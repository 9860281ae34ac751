import type { Regime } from "../jurisdictions/regimes";

/**
 * Machine-readable privacy choices a browser sends with every request, read in this one module. Each signal is
 * data: the request header that carries it, and what it means under each consent regime. The bootstrap applies the
 * effects; every request recorded from a browser keeps the signals it came with in `meta.context.signals`.
 * Adding a signal (the Digital Omnibus Art. 88b choices, once specified) is an entry here, not code.
 */
export const signalEffects = ["opt-out-of-sale-or-sharing"] as const;
export type SignalEffect = (typeof signalEffects)[number];

export type BrowserSignal = {
  /** Its key in `meta.context.signals`. */
  name: string;
  title: string;
  spec: string;
  /** The request header (lower case) and the value that means the signal is on. */
  header: string;
  value: string;
  /** What the signal asks for under each regime; a regime not listed records it without effect. */
  effects: Partial<Record<Regime, SignalEffect>>;
};

export const browserSignals: readonly BrowserSignal[] = [
  {
    name: "gpc",
    title: "Global Privacy Control",
    spec: "https://privacycg.github.io/gpc-spec/",
    header: "sec-gpc",
    value: "1",
    effects: { "opt-out": "opt-out-of-sale-or-sharing" },
  },
];

/** The signals in force: the built-in ones, and in tests those `TEST_SIGNALS` (a JSON list) adds. */
export function signalsInForce(env: { TEST_SIGNALS?: string }): readonly BrowserSignal[] {
  return env.TEST_SIGNALS ? [...browserSignals, ...(JSON.parse(env.TEST_SIGNALS) as BrowserSignal[])] : browserSignals;
}

export type Signals = Record<string, true>;

/** The signals a request carries, by name. */
export function readSignals(env: { TEST_SIGNALS?: string }, headers: Headers): Signals {
  const on: Signals = {};
  for (const signal of signalsInForce(env)) if (headers.get(signal.header)?.trim() === signal.value) on[signal.name] = true;
  return on;
}

/** Whether any signal the request carries asks for `effect` under `regime`. */
export const asksFor = (env: { TEST_SIGNALS?: string }, signals: Signals, regime: Regime, effect: SignalEffect) =>
  signalsInForce(env).some((signal) => signals[signal.name] && signal.effects[regime] === effect);

/** Where the signals the service honours are described (worker/signals/routes.ts serves it). */
export const signalPolicyPath = "/.well-known/privacy-signals.json";

/** What a response says about the signals: for one request (the bootstrap's), or for all (static files). */
type Answered = { signals: Signals; regime: Regime; applied: readonly SignalEffect[] };

/**
 * The response headers that say what the service honours, from the table (docs/regulatory-readiness.md#response-headers):
 * `Assent-Signals`, a structured-field list (RFC 9651) naming every signal in force, each with `received` when the
 * request carried it and `effect=…` when that effect was applied under the visitor's regime; and a `Link` to the
 * signal policy. A response that depends on the signals also varies on their request headers. Pure data in, text
 * out: the widget's build writes the same headers for the static files (widget/vite.config.ts).
 */
export function signalHeaders(inForce: readonly BrowserSignal[], answered?: Answered): Record<string, string> {
  const members = inForce.map((signal) => {
    if (!answered?.signals[signal.name]) return signal.name;
    const effect = signal.effects[answered.regime];
    return `${signal.name};received${effect && answered.applied.includes(effect) ? `;effect=${effect}` : ""}`;
  });
  return {
    "Assent-Signals": members.join(", "),
    Link: `<${signalPolicyPath}>; rel="describedby"; type="application/json"`,
    ...(answered ? { Vary: inForce.map((signal) => signal.header).join(", ") } : {}),
  };
}
