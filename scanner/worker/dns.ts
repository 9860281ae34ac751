import type { ResolveHost } from "../../shared/ssrf";

/** Cloudflare's resolver, asked over HTTPS in its JSON form: a Worker has no resolver of its own to ask. */
const dohEndpoint = "https://cloudflare-dns.com/dns-query";
/** DNS record types in answers: an address of each family (CNAMEs in the chain are skipped). */
const addressTypes = new Set([1, 28]);

/**
 * The IPv4 and IPv6 addresses `host` resolves to, through DNS over HTTPS (`A` and `AAAA`, asked together). A failed
 * lookup throws, so the guard refuses the host rather than letting it through unresolved.
 */
export function dohResolver(fetcher: typeof fetch = fetch): ResolveHost {
  const ask = async (host: string, type: "A" | "AAAA") => {
    const url = `${dohEndpoint}?name=${encodeURIComponent(host)}&type=${type}`;
    const answer = await fetcher(url, { headers: { accept: "application/dns-json" } });
    if (!answer.ok) throw new Error(`DNS over HTTPS answered ${answer.status} for ${host}.`);
    const { Status, Answer } = (await answer.json()) as { Status: number; Answer?: { type: number; data: string }[] };
    // NXDOMAIN (3) is an answer: no addresses. Anything else but NOERROR is a failure.
    if (Status !== 0 && Status !== 3) throw new Error(`DNS over HTTPS could not resolve ${host} (status ${Status}).`);
    return (Answer ?? []).filter((record) => addressTypes.has(record.type)).map((record) => record.data);
  };
  return async (host) => (await Promise.all([ask(host, "A"), ask(host, "AAAA")])).flat();
}
