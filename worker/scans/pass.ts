import { decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import type { VisitorPass } from "../auth/browser-tokens";
import { signingKeys } from "../auth/keys";
import { issuerOf } from "../auth/tokens";
import type { Env } from "../env";
import { newId } from "../lib/ids";
import { capOf, countToday } from "../limits/daily";
import { publicOrigin, requireSetting } from "../lib/settings";
import { scanPassHeader, type ScanPass } from "../../shared/scans/pass";

/**
 * A scan pass: a short-lived signed statement that the browser carrying it is the project's own scanner. The scan's
 * browser adds it below the page to every request to this service (scanner/visit.ts), so:
 * - the per-address visitor limit does not cut a scan short (one address makes three visitors a page);
 * - every identity a first visit makes under it carries the pass's id as an alias, so the scan can remove exactly
 *   the visitors it made, and nothing else, once its report is stored (worker/scans/visitors.ts).
 * It is signed with the token key but for its own audience and type, so it is never an access token.
 */
/**
 * Alias type marking an identity a first visit made under a scan pass. An alias names one identity in a project, so
 * its identifier is `<passId>:<identityId>`, and a scan's visitors are one range of the aliases' key.
 */
export const scanAliasType = "urn:svc:assent-scan";
export const scanAliasOf = (passId: string, identityId: string) => `${passId}:${identityId}`;

/** Long enough for the longest scan (the Worker's are failed after 15 minutes; the CLI's may run longer). */
export const scanPassTtlSeconds = 3600;
const passAudience = "assent-scan-pass";
const passType = "scan-pass+jwt";

export async function issueScanPass(env: Env, projectId: string): Promise<{ passId: string; pass: string; expiresIn: number }> {
  const [key] = await signingKeys(requireSetting(env, "SIGNING_KEYS"));
  const passId = newId("spa");
  const pass = await new SignJWT({})
    .setProtectedHeader({ alg: "ES256", kid: key.kid, typ: passType })
    .setIssuer(issuerOf(env))
    .setAudience(passAudience)
    .setSubject(projectId)
    .setJti(passId)
    .setIssuedAt()
    .setExpirationTime(`${scanPassTtlSeconds}s`)
    .sign(key.privateKey);
  return { passId, pass, expiresIn: scanPassTtlSeconds };
}

/** What a scan's browser sends to this service: the pass, on its requests to the service's own origin. */
export const scanPassFor = (env: Env, pass: string): ScanPass => ({ service: publicOrigin(env), header: scanPassHeader, value: pass });

/**
 * The id of the project's valid scan pass a request carries, or undefined. A pass that is malformed, expired, signed
 * by an unknown key or for another project counts as none: the request goes on as any visitor's, limits included.
 */
export async function scanPassOf(env: Env, projectId: string, presented: string | undefined): Promise<string | undefined> {
  if (!presented) return undefined;
  try {
    const { kid } = decodeProtectedHeader(presented);
    const key = (await signingKeys(requireSetting(env, "SIGNING_KEYS"))).find((candidate) => candidate.kid === kid);
    if (!key) return undefined;
    const { payload } = await jwtVerify(presented, key.publicKey, {
      algorithms: ["ES256"],
      typ: passType,
      issuer: issuerOf(env),
      audience: passAudience,
      subject: projectId,
      requiredClaims: ["exp", "jti"],
    });
    return payload.jti;
  } catch {
    return undefined;
  }
}

/**
 * The scan pass as the routes that admit visitors hand it to auth (`VisitorPass`, worker/auth/browser-tokens.ts).
 * The scanned page's own scripts run below the pass too and could mint visitors through it while the scan runs, so a
 * pass spares the address limit for at most `visitors-per-scan-pass` visitors (counted exactly, in D1); past that it
 * counts as none.
 */
export const scanVisitorPass: VisitorPass = async (env, projectId, headers) => {
  const passId = await scanPassOf(env, projectId, headers.get(scanPassHeader) ?? undefined);
  if (!passId || (await countToday(env.DB, "visitors-per-scan-pass", passId)) > capOf(env, "visitors-per-scan-pass")) return undefined;
  return { aliasFor: (identityId) => ({ type: scanAliasType, identifier: scanAliasOf(passId, identityId) }) };
};
