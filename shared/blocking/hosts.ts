/**
 * Host patterns of the blocking list and the vendor catalogue, one definition for the Worker (which refuses bad
 * ones), the catalogue's test and the page-side blocker (which matches them against the hosts a page loads from).
 *
 * A pattern is a lowercase host name (`connect.facebook.net`), or one with a single leading wildcard label
 * (`*.clarity.ms`), which covers every subdomain at any depth but not the bare domain itself. No scheme, path,
 * port, trailing dot or IP address.
 *
 * A rule of the list is a pattern, optionally followed by a path prefix: `www.google.com/maps/embed` holds Google
 * Maps' embed and nothing else of `www.google.com` (reCAPTCHA, say). The prefix matches the URL's path from its start.
 */

const label = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const hostName = new RegExp(`^(?:${label}\\.)*${label}$`);

/** Whether `value` is a host name as the list takes it (lowercase, no port, not an IP address). */
export function isHostName(value: string): boolean {
  if (value.length > 253 || !hostName.test(value)) return false;
  // Top-level domains are never all digits: this refuses IPv4 addresses.
  return !/^\d+$/.test(value.slice(value.lastIndexOf(".") + 1));
}

/** Whether `value` is a host pattern: a host name, or `*.` and a host name. */
export const isHostPattern = (value: string): boolean => isHostName(value.startsWith("*.") ? value.slice(2) : value);

/** Whether `pattern` covers `host` (both lowercase): the same host, or a subdomain of a wildcard's domain. */
export function patternCovers(pattern: string, host: string): boolean {
  return pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) : pattern === host;
}

/**
 * The first vendor whose host patterns cover `host`, which may itself be a pattern of the list: `*.clarity.ms` is
 * covered by the same pattern, `*.eu.clarity.ms` by a wildcard over a domain above it.
 */
export function vendorCovering<V extends { hosts: readonly string[] }>(vendors: readonly V[], host: string): V | undefined {
  const name = host.replace(/^\*\./, "");
  return vendors.find((vendor) => vendor.hosts.some((pattern) => pattern === host || patternCovers(pattern, name)));
}

/** A rule's host pattern and its path prefix ("" for the whole host). */
export function ruleParts(rule: string): [string, string] {
  const slash = rule.indexOf("/");
  return slash < 0 ? [rule, ""] : [rule.slice(0, slash), rule.slice(slash)];
}

/** Whether `value` is a rule: a host pattern, or one followed by a path prefix (printable, no query, fragment or `..`). */
export function isRule(value: string): boolean {
  const [host, path] = ruleParts(value);
  return isHostPattern(host) && (path === "" || (/^\/[\x21-\x7e]*$/.test(path) && !/[?#\\]|\/\.\.?(\/|$)/.test(path)));
}

/** Whether `rule` covers `url`: its host pattern covers the URL's host, and the URL's path starts with its prefix. */
export function ruleCovers(rule: string, url: { hostname: string; pathname: string }): boolean {
  const [host, path] = ruleParts(rule);
  return patternCovers(host, url.hostname) && url.pathname.startsWith(path);
}
