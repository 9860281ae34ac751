/** Two-label public suffixes common enough to matter; without them `shop.co.uk` and `ads.co.uk` would be one site. */
const twoLabelSuffixes = new Set(["co.uk", "org.uk", "ac.uk", "gov.uk", "com.au", "net.au", "org.au", "co.nz", "co.jp", "com.br", "com.cn", "co.in", "co.za", "com.mx", "com.tr"]);

/**
 * A host's site, for first- and third-party: its last two labels (three under a two-label public suffix). Every
 * `*.localhost` name is its own site, as Chromium resolves each to the loopback (the tests' third parties).
 */
export function siteOf(hostname: string): string {
  const host = hostname.toLowerCase().replace(/^\./, "").replace(/\.$/, "");
  if (/^[\d.]+$/.test(host) || host.includes(":") || host.startsWith("[")) return host;
  if (host.endsWith(".localhost") || host === "localhost") return host;
  const labels = host.split(".");
  const keep = twoLabelSuffixes.has(labels.slice(-2).join(".")) ? 3 : 2;
  return labels.slice(-keep).join(".");
}
