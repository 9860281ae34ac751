/**
 * Values kept in the isolate's memory until they expire: what a hot path read recently (a verified token, a client
 * record, an origin's client, a password check). At most `maxEntries`: past that it starts over, which is cheaper
 * than tracking use, and a miss only costs the read it saved.
 */
export declare function ttlCache<V>(ttlMs: number, maxEntries?: number): {
    /** The value while it is fresh; undefined when absent or expired. */
    get(key: string): V | undefined;
    /** Keeps `value` for the cache's time to live, or until `until` (epoch milliseconds) when the value says so. */
    set(key: string, value: V, until?: number): void;
    delete(key: string): void;
};
