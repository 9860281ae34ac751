/**
 * Host patterns of the blocking list and the vendor catalogue, one definition for the Worker (which refuses bad
 * ones), the catalogue's test and the page-side blocker (which matches them against the hosts a page loads from).
 *
 * A pattern is a lowercase host name (`connect.facebook.net`), or one with a single leading wildcard label
 * (`*.clarity.ms`), which covers every subdomain at any depth but not the bare domain itself. No scheme, path,
 * port, trailing dot or IP address.
 */
/** Whether `value` is a host name as the list takes it (lowercase, no port, not an IP address). */
export declare function isHostName(value: string): boolean;
/** Whether `value` is a host pattern: a host name, or `*.` and a host name. */
export declare const isHostPattern: (value: string) => boolean;
/** Whether `pattern` covers `host` (both lowercase): the same host, or a subdomain of a wildcard's domain. */
export declare function patternCovers(pattern: string, host: string): boolean;
/** A rule's host pattern and its path prefix ("" for the whole host). */
export declare function ruleParts(rule: string): [string, string];
/** Whether `value` is a rule: a host pattern, or one followed by a path prefix (printable, no query, fragment or `..`). */
export declare function isRule(value: string): boolean;
/** Whether `rule` covers `url`: its host pattern covers the URL's host, and the URL's path starts with its prefix. */
export declare function ruleCovers(rule: string, url: {
    hostname: string;
    pathname: string;
}): boolean;
/**
 * The first vendor whose host patterns cover `host`, which may itself be a pattern of the list: `*.clarity.ms` is
 * covered by the same pattern, `*.eu.clarity.ms` by a wildcard over a domain above it.
 */
export declare function vendorCovering<V extends {
    hosts: readonly string[];
}>(vendors: readonly V[], host: string): V | undefined;
