// Token checks under load: 1,000 concurrent calls mixing good tokens with expired, tampered, foreign-project,
// unknown-key and revoked ones. Verified tokens are cached in the isolate, so the mix also proves that a cached
// good token never lets a bad one through and a bad one never poisons the cache for a good one.
import { env, exports } from "cloudflare:workers";
import { decodeJwt, generateKeyPair, importJWK, SignJWT, type JWTPayload } from "jose";
import { describe, expect, it } from "vitest";
import { admin, newTenant, origin, tokenFor } from "./helpers";

type Kind = "valid" | "expired" | "tampered-claims" | "tampered-signature" | "foreign-project" | "unknown-key" | "revoked";

async function sign(claims: JWTPayload, key: CryptoKey, kid: string) {
  return new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid, typ: "at+jwt" }).sign(key);
}

describe("auth under load", { timeout: 60_000 }, () => {
  it("serves every good token and refuses every bad one among 1,000 concurrent calls", async () => {
    const tenant = await newTenant();
    const other = await newTenant();
    const second = await tokenFor(tenant.clientId, tenant.clientSecret);
    const identityId = (await tenant.api("POST", "/identities", { referenceId: "load" })).body.identityId;

    const [serviceKey] = JSON.parse(env.SIGNING_KEYS) as (JsonWebKey & { kid: string })[];
    const privateKey = (await importJWK({ ...serviceKey, alg: "ES256" }, "ES256")) as CryptoKey;
    const claims = decodeJwt(tenant.token);
    const now = Math.floor(Date.now() / 1000);
    const expired = await sign({ ...claims, iat: now - 7200, exp: now - 3600 }, privateKey, serviceKey.kid);
    const [header, payload, signature] = tenant.token.split(".");
    const otherClaims = btoa(JSON.stringify({ ...claims, pid: other.projectId })).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
    const tamperedClaims = `${header}.${otherClaims}.${signature}`;
    const flipped = signature[10] === "A" ? "B" : "A";
    const tamperedSignature = `${header}.${payload}.${signature.slice(0, 10)}${flipped}${signature.slice(11)}`;
    const attacker = await generateKeyPair("ES256", { extractable: true });
    const unknownKey = await sign({ ...claims }, attacker.privateKey as CryptoKey, serviceKey.kid);
    // A client whose secret was regenerated: its old token is revoked.
    const revokedClient = (await admin("POST", `/projects/${tenant.projectId}/clients`, { name: "revoked", type: "backend", allowedOrigins: [] })).body;
    const revoked = await tokenFor(revokedClient.clientId, revokedClient.clientSecret);
    expect((await call(revoked)).status).toBe(200);
    expect((await admin("POST", `/projects/${tenant.projectId}/clients/${revokedClient.clientId}/secret`)).status).toBe(200);

    function call(token: string) {
      const path = `/privacy/v2/projects/${tenant.projectId}/identities/${identityId}`;
      return exports.default.fetch(new Request(origin + path, { headers: { authorization: `Bearer ${token}` } }));
    }
    const tokens: Record<Kind, string[]> = {
      valid: [tenant.token, second],
      expired: [expired],
      "tampered-claims": [tamperedClaims],
      "tampered-signature": [tamperedSignature],
      "foreign-project": [other.token],
      "unknown-key": [unknownKey],
      revoked: [revoked],
    };
    const kinds = Object.keys(tokens) as Kind[];
    // A fixed interleaving (every kind appears throughout), half of the calls with a valid token.
    const bad = kinds.filter((k) => k !== "valid");
    const plan = Array.from({ length: 1000 }, (_, i): Kind => (i % 2 === 0 ? "valid" : bad[((i - 1) / 2) % bad.length]));
    const replies = await Promise.all(
      plan.map(async (kind, i) => {
        const reply = await call(tokens[kind][i % tokens[kind].length]);
        return { kind, status: reply.status, body: await reply.json<any>(), type: reply.headers.get("content-type") };
      }),
    );
    const outcome = (kind: Kind) => replies.filter((r) => r.kind === kind);
    for (const kind of kinds) expect(outcome(kind).length, kind).toBeGreaterThan(50);
    for (const reply of outcome("valid")) {
      expect(reply.status).toBe(200);
      expect(reply.body.identityId).toBe(identityId);
    }
    for (const kind of bad) {
      // Another project's token meets the path of this one: answered as if the project did not exist.
      const [status, code] = kind === "foreign-project" ? [404, "not_found"] : [401, "unauthorized"];
      for (const reply of outcome(kind)) {
        expect({ kind, status: reply.status, code: reply.body.code, type: reply.type }).toEqual({ kind, status, code, type: "application/problem+json" });
      }
    }
  });
});
