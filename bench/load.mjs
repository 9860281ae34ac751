// One autocannon run per scenario: a short unrecorded warm-up, then a fixed number of seconds at 32 connections.
import autocannon from "autocannon";

export const connections = 32;

const run = (options) =>
  new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });

/**
 * Measures one scenario. `requests` follows autocannon's `requests` option (a `setupRequest` may vary each request);
 * every answer must carry `expectStatus`, otherwise the run counts it as an error and the figure is flagged.
 */
export async function measure(baseUrl, scenario, { seconds, warmupSeconds, cpuSeconds }) {
  const options = {
    url: baseUrl,
    // A report an operator opens now and then is measured one at a time (bench/analytics.mjs).
    connections: scenario.connections ?? connections,
    method: scenario.method ?? "GET",
    headers: scenario.headers,
    body: scenario.body,
    requests: scenario.requests ?? [{ path: scenario.path }],
  };
  if (warmupSeconds > 0) await run({ ...options, duration: warmupSeconds });
  const cpuBefore = cpuSeconds?.();
  const result = await run({ ...options, duration: seconds });
  const cpuAfter = cpuSeconds?.();
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)]));
  const unexpected = Object.entries(statuses)
    .filter(([code]) => Number(code) !== scenario.expectStatus)
    .reduce((sum, [, count]) => sum + count, 0);
  return {
    // Completed requests over the run's length (autocannon's per-second average drops seconds with no completion).
    requestsPerSecond: round(result.requests.total / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    // Server CPU (every process of the runtime) per request served; autocannon runs in this process, not there.
    cpuMsPerRequest: cpuBefore === undefined ? null : round(((cpuAfter - cpuBefore) * 1000) / Math.max(1, result.requests.total), 100),
    statuses,
    unexpected: unexpected + result.errors + result.timeouts,
  };
}

const round = (n, by = 10) => Math.round(n * by) / by;
