/**
 * Values kept in the isolate's memory until they expire: what a hot path read recently (a verified token, a client
 * record, an origin's client, a password check). At most `maxEntries`: past that it starts over, which is cheaper
 * than tracking use, and a miss only costs the read it saved.
 */
export function ttlCache<V>(ttlMs: number, maxEntries = 10_000) {
  const entries = new Map<string, { value: V; until: number }>();
  return {
    /** The value while it is fresh; undefined when absent or expired. */
    get(key: string): V | undefined {
      const hit = entries.get(key);
      return hit && hit.until > Date.now() ? hit.value : undefined;
    },
    /** Keeps `value` for the cache's time to live, or until `until` (epoch milliseconds) when the value says so. */
    set(key: string, value: V, until = Date.now() + ttlMs): void {
      if (entries.size >= maxEntries) entries.clear();
      entries.set(key, { value, until });
    },
    delete(key: string): void {
      entries.delete(key);
    },
  };
}
