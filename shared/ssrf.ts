/**
 * SSRF guard for webhook targets. In production only `https` URLs whose host is a public name or a
 * public IP literal are accepted; with `ALLOW_LOOPBACK_WEBHOOKS=true` (set by `npm start`) loopback
 * targets (`localhost`, 127.0.0.0/8, ::1) are accepted too, over http or https, so a developer can point a
 * webhook at their own machine. Names are not resolved here: Workers' subrequests leave through
 * Cloudflare's network, which does not reach private networks, so a public name that resolves to a
 * private address fails to connect rather than reaching an internal service. Redirects are never followed.
 */

/** IPv4 ranges that are not publicly routable (RFC 6890 special-purpose registry), as [first octets, prefix length]. */
const privateV4: Array<[number[], number]> = [
  [[0], 8], // "this network"
  [[10], 8], // private
  [[100, 64], 10], // carrier-grade NAT
  [[127], 8], // loopback
  [[169, 254], 16], // link-local (cloud metadata endpoints live here)
  [[172, 16], 12], // private
  [[192, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2], 24], // documentation
  [[192, 88, 99], 24], // 6to4 relay anycast
  [[192, 168], 16], // private
  [[198, 18], 15], // benchmarking
  [[198, 51, 100], 24], // documentation
  [[203, 0, 113], 24], // documentation
  [[224], 4], // multicast
  [[240], 4], // reserved, broadcast
];

/** Suffixes of names that only resolve inside a local network. */
const localSuffixes = [".localhost", ".local", ".internal", ".localdomain", ".home.arpa", ".lan"];

function v4ToNumber(octets: number[]): number {
  return ((octets[0] << 24) | (octets[1] << 16) | (octets[2] << 8) | octets[3]) >>> 0;
}

function inV4Range(address: number, [start, prefix]: [number[], number]): boolean {
  const base = v4ToNumber([...start, 0, 0, 0, 0].slice(0, 4));
  const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
  return ((address & mask) >>> 0) === ((base & mask) >>> 0);
}

type HostKind = "public" | "loopback" | "private";

function classifyV4(octets: number[]): HostKind {
  const address = v4ToNumber(octets);
  if (inV4Range(address, [[127], 8])) return "loopback";
  return privateV4.some((range) => inV4Range(address, range)) ? "private" : "public";
}

/** The eight 16-bit groups of an IPv6 literal as the URL parser serialises it (lower-case, `::` compressed, no dotted tail). */
function v6Groups(literal: string): number[] | null {
  const [head, tail, extra] = literal.split("::");
  if (extra !== undefined) return null;
  const parse = (part: string) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

function classifyV6(groups: number[]): HostKind {
  const embeddedV4 = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff];
  const zeroPrefix = (n: number) => groups.slice(0, n).every((g) => g === 0);
  if (zeroPrefix(7) && groups[7] === 1) return "loopback"; // ::1
  if (zeroPrefix(5) && groups[5] === 0xffff) return classifyV4(embeddedV4(groups[6], groups[7])); // IPv4-mapped
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0)) {
    return classifyV4(embeddedV4(groups[6], groups[7])); // NAT64 well-known prefix
  }
  if (groups[0] === 0x2002) return classifyV4(embeddedV4(groups[1], groups[2])); // 6to4
  if (groups[0] === 0x2001 && groups[1] === 0x0db8) return "private"; // documentation
  if (groups[0] === 0x2001 && groups[1] === 0) return "private"; // Teredo
  // Everything outside global unicast (2000::/3) is unspecified, loopback-like, unique-local, link-local or multicast.
  return (groups[0] & 0xe000) === 0x2000 ? "public" : "private";
}

function classifyHost(hostname: string): HostKind {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[")) {
    const groups = v6Groups(host.slice(1, -1));
    return groups ? classifyV6(groups) : "private";
  }
  // The URL parser has already turned every IPv4 spelling (decimal, hex, octal, short forms) into a dotted quad.
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return classifyV4(host.split(".").map(Number));
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback";
  if (!host.includes(".") || localSuffixes.some((suffix) => host.endsWith(suffix))) return "private";
  return "public";
}

/** Why a webhook URL is refused, or undefined when it may be called. */
export function webhookUrlProblem(raw: string, allowLoopback: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "The URL is not an absolute URL.";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "Only http(s) URLs can receive webhooks.";
  if (url.username || url.password) return "Credentials in the URL are not allowed; authenticate the request by its signature.";
  const kind = classifyHost(url.hostname);
  if (kind === "loopback" && allowLoopback) return undefined;
  if (kind !== "public") return `The host ${url.hostname} is not a public address.`;
  if (url.protocol !== "https:") return "Webhook URLs must use https.";
  return undefined;
}

export const loopbackAllowed = (env: { ALLOW_LOOPBACK_WEBHOOKS?: string }) => env.ALLOW_LOOPBACK_WEBHOOKS === "true";

/** The addresses a host name resolves to (A and AAAA), or none: DNS over HTTPS in the scanner's Worker, a stand-in in tests. */
export type ResolveHost = (host: string) => Promise<string[]>;

/** Why a scan's browser may not make a request to `url`, or undefined when it may. */
export type RequestGuard = (url: string) => Promise<string | undefined>;

/**
 * Paths of the service's own origin a page running Assent calls (the widget and its assets, the visitor's API,
 * the configuration): a scanned page may reach these, and nothing else of the service (its admin API, the token
 * endpoint, the portal, the hub).
 */
export const serviceBrowserDoors = ["/widget/", "/browser/", "/privacy/"];

/** How an IP address (as DNS answers it: dotted quad, or IPv6 without brackets) is routed. */
function addressKind(address: string): HostKind {
  if (/^\d+\.\d+\.\d+\.\d+$/.test(address)) return classifyV4(address.split(".").map(Number));
  const canonical = (() => {
    try {
      return new URL(`http://[${address}]/`).hostname;
    } catch {
      return null;
    }
  })();
  const groups = canonical ? v6Groups(canonical.slice(1, -1)) : null;
  return groups ? classifyV6(groups) : "private";
}

const allowedKind = (kind: HostKind, allowLoopback: boolean) => kind === "public" || (kind === "loopback" && allowLoopback);

/**
 * The guard every request of a Worker-run scan passes (scanner/devtools.ts `guardRequests`: top frames, frames,
 * images, scripts, fetches, redirects). A request may go only to a host whose every address, after resolving its
 * name with `resolve`, is public (loopback too with `allowLoopback`, local development only), and to the service's
 * own origin only through the doors a page running Assent uses (`serviceBrowserDoors`). A name that does not
 * resolve is refused: the browser could not load it anyway, and a resolver failure must not open the door. Each
 * host is resolved once per guard (one crawl).
 */
export function scanRequestGuard(options: { allowLoopback: boolean; service?: string; resolve: ResolveHost }): RequestGuard {
  const hosts = new Map<string, Promise<string | undefined>>();
  const service = options.service ? new URL(options.service).origin : undefined;
  const hostProblem = async (hostname: string): Promise<string | undefined> => {
    const kind = classifyHost(hostname);
    if (!allowedKind(kind, options.allowLoopback)) return `The host ${hostname} is not a public address.`;
    const literal = hostname.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(hostname);
    if (literal || kind === "loopback") return undefined;
    let addresses: string[];
    try {
      addresses = await options.resolve(hostname.replace(/\.$/, ""));
    } catch {
      return `The host ${hostname} could not be resolved.`;
    }
    if (addresses.length === 0) return `The host ${hostname} does not resolve.`;
    const inside = addresses.find((address) => !allowedKind(addressKind(address), options.allowLoopback));
    return inside ? `The host ${hostname} resolves to ${inside}, which is not a public address.` : undefined;
  };
  return async (raw) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return "The URL is not an absolute URL.";
    }
    // Nothing leaves the browser for these.
    if (["data:", "blob:", "about:", "javascript:"].includes(url.protocol)) return undefined;
    if (!["http:", "https:", "ws:", "wss:"].includes(url.protocol)) return `${url.protocol} URLs are not fetched by a scan.`;
    const origin = `${url.protocol.replace(/^ws/, "http")}//${url.host}`;
    if (origin === service && !serviceBrowserDoors.some((door) => url.pathname.startsWith(door))) {
      return `${url.pathname} is on the service's own origin, outside what a page running Assent calls.`;
    }
    const key = url.hostname.toLowerCase();
    if (!hosts.has(key)) hosts.set(key, hostProblem(key));
    return hosts.get(key)!;
  };
}
