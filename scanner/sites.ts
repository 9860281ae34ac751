/** Two-label public suffixes common enough to matter; without them `shop.co.uk` and `ads.co.uk` would be one site. */
const twoLabelSuffixes = new Set(["co.uk", "org.uk", "ac.uk", "gov.uk", "com.au", "net.au", "org.au", "co.nz", "co.jp", "com.br", "com.cn", "co.in", "co.za", "com.mx", "com.tr"]);

/**
 * A host's site (registrable domain), for first and third party and for the links the crawl follows: its last two
 * labels (three under a two-label public suffix). `localhost` counts as a public suffix, as Chromium's site rules
 * treat an unlisted top-level name: `ads.localhost` and `shop.localhost` are two sites, `blog.shop.localhost` is
 * part of `shop.localhost`, and plain `localhost` is a site of its own.
 */
export function siteOf(hostname: string): string {
  const host = hostname.toLowerCase().replace(/^\./, "").replace(/\.$/, "");
  if (/^[\d.]+$/.test(host) || host.includes(":") || host.startsWith("[")) return host;
  const labels = host.split(".");
  const keep = twoLabelSuffixes.has(labels.slice(-2).join(".")) ? 3 : 2;
  return labels.slice(-keep).join(".");
}
