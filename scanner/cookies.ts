import { thirdPartyRefusal, type RefusedCookie, type SeenCookie } from "./devtools.ts";

/**
 * A cookie as a `document.cookie` write in a third-party frame sets it in a visitor's browser that allows
 * third-party cookies (the scan's browser drops the write: docs/scanner.md#what-it-records), or why no browser keeps
 * it. `url` is the frame's address, `nowSeconds` the time of reading (Unix seconds).
 */
export function cookieFromWrite(written: string, url: URL, initiator: string | null, nowSeconds: number): { kept: SeenCookie } | { refused: RefusedCookie } | null {
  const [pair, ...attributes] = written.split(";");
  const eq = pair.indexOf("=");
  const name = (eq < 0 ? "" : pair.slice(0, eq)).trim();
  if (!name) return null;
  const attribute = new Map<string, string>();
  for (const part of attributes) {
    const at = part.indexOf("=");
    const key = (at < 0 ? part : part.slice(0, at)).trim().toLowerCase();
    if (key) attribute.set(key, at < 0 ? "" : part.slice(at + 1).trim());
  }
  const domain = (attribute.get("domain") || url.hostname).replace(/^\./, "").toLowerCase();
  // RFC 6265 §5.1.4: without Path, the directory of the page's path.
  const path = attribute.get("path")?.startsWith("/") ? attribute.get("path")! : url.pathname.slice(0, Math.max(1, url.pathname.lastIndexOf("/")));
  const maxAge = attribute.has("max-age") ? Number(attribute.get("max-age")) : NaN;
  const expiresAt = attribute.has("expires") ? Date.parse(attribute.get("expires")!) : NaN;
  const expires = Number.isFinite(maxAge) ? Math.round(nowSeconds + maxAge) : Number.isFinite(expiresAt) ? Math.round(expiresAt / 1000) : null;
  if (expires !== null && expires <= nowSeconds) return null; // a deletion
  const secure = attribute.has("secure");
  const sameSiteValue = attribute.get("samesite")?.toLowerCase();
  const sameSite = sameSiteValue === "none" ? "None" : sameSiteValue === "strict" ? "Strict" : sameSiteValue === "lax" ? "Lax" : null;
  const refusal = thirdPartyRefusal({ sameSite, secure });
  if (refusal) return { refused: { name, domain, reason: refusal, initiator } };
  return { kept: { name, domain, path, expires, httpOnly: false, secure, sameSite: "None", initiator } };
}
