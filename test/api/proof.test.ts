import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { compactVerify, createLocalJWKSet, decodeJwt, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { auditLog, canonical, leafOf, sha256, verifyConsistency, verifyInclusion } from "../../scripts/log-verifier.mjs";
import worker from "../../worker/index";
import { configuredTenant, permissionBody } from "./configuration-fixture";
import { runCron } from "./cron";
import { call, expectProblem, ok, origin } from "./helpers";

type Tenant = Awaited<ReturnType<typeof configuredTenant>>;
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** The public keys as anyone gets them: through the Worker's `/.well-known/jwks.json`. */
async function publicKeys() {
  const reply = await call("GET", "/.well-known/jwks.json");
  expect(reply.status).toBe(200);
  return createLocalJWKSet(reply.body);
}

/** Runs the Worker's cron (trigger, then queue consumer): it seals the log among its jobs. */
const seal = () => runCron();
const audit = (t: Tenant) => auditLog({ projectId: t.projectId, get: async (path) => ok(await call("GET", path, { token: t.token })) });

describe("receipts", () => {
  it("are compact JWS that verify with jose against the published JWKS, over the canonical record", async () => {
    const t = await configuredTenant();
    const first = ok(await t.api("POST", "/permissions", permissionBody(t, "approved", ago(1))), 201);
    expect(typeof first.receipt).toBe("string");
    const { payload, protectedHeader } = await jwtVerify(first.receipt!, await publicKeys(), { algorithms: ["ES256"], typ: "assent-receipt+jwt" });
    expect(protectedHeader.kid).toBe("test-1");
    const version = await env.DB.prepare("SELECT content FROM purpose_versions WHERE purpose_id = ? AND version = '1'").bind(t.marketing).first<{ content: string }>();
    expect(payload).toMatchObject({
      jti: payload.receiptId,
      sub: t.identityId,
      event: "created",
      projectId: t.projectId,
      controller: { name: "Example AB" },
      identityId: t.identityId,
      requestId: first.requestId,
      family: "permission",
      status: "completed",
      requested: first.requested,
      received: first.created,
      requestedBy: t.clientId,
      collectionMethod: "web-dialog",
      application: "shop-web",
      language: "en",
      previousReceiptHash: null,
      purposes: [
        {
          purposeId: t.marketing,
          version: "1",
          legalGround: "consent",
          contentSha256: await sha256(canonical(JSON.parse(version!.content))),
          status: "approved",
          dataGroups: [
            { dataGroupId: t.email, referenceId: "email", status: "approved" },
            { dataGroupId: t.location, referenceId: "location", status: "approved" },
          ],
          processors: [{ partyId: t.processor, status: "approved" }],
          recipients: [{ partyId: t.recipient, status: "approved" }],
        },
      ],
    });
    // The signed bytes are the record's canonical JSON.
    const [, body] = first.receipt!.split(".");
    expect(atob(body.replace(/-/g, "+").replace(/_/g, "/"))).toBe(canonical(payload));
    // A changed byte does not verify.
    const forged = first.receipt!.replace(/.(?=\.[^.]*$)/, (ch: string) => (ch === "A" ? "B" : "A"));
    await expect(compactVerify(forged, await publicKeys())).rejects.toThrow();
  });

  it("chain per identity, come with status changes, and are served at …/receipt", async () => {
    const t = await configuredTenant();
    const first = ok(await t.api("POST", "/permissions", permissionBody(t, "approved", ago(2))), 201);
    const objection = ok(await t.api("POST", "/objections", { identityId: t.identityId, requested: ago(1), request: { purposes: [{ purposeId: t.analytics }] } }), 201);
    expect(decodeJwt(objection.receipt!).previousReceiptHash).toBe(await sha256(first.receipt!));
    const moved = ok(await t.api("PUT", `/objections/${objection.requestId}`, { status: "completed" }));
    const claims = (await jwtVerify(moved.receipt!, await publicKeys(), { typ: "assent-receipt+jwt" })).payload;
    expect(claims).toMatchObject({ event: "updated", status: "completed", previousReceiptHash: await sha256(objection.receipt!), purposes: [{ purposeId: t.analytics, version: "1", legalGround: "legitimate_interests" }] });
    const served = ok(await t.api("GET", `/objections/${objection.requestId}/receipt`));
    expect(served).toEqual({ requestId: objection.requestId, receipt: moved.receipt!, receiptHash: await sha256(moved.receipt!) });
    const withdrawn = ok(await t.api("DELETE", `/permissions/${first.requestId}`));
    expect(decodeJwt(withdrawn.receipt!)).toMatchObject({ event: "withdrawn", status: "withdrawn" });
    // Erasure and access requests get receipts too; another project's request is a 404.
    const erasure = ok(await t.api("POST", "/erasures", { identityId: t.identityId, request: { dataGroups: [t.email] } }), 201);
    expect(decodeJwt(erasure.receipt!)).toMatchObject({ family: "erasure", scope: { dataGroups: [t.email] } });
    const other = await configuredTenant();
    expectProblem(await other.api("GET", `/objections/${objection.requestId}/receipt`), 404, "not_found");
  });

  it("hash the wording as it stands when recorded, so an in-place edit of a version shows in the next receipt", async () => {
    const t = await configuredTenant();
    const before = decodeJwt(ok(await t.api("POST", "/permissions", permissionBody(t, "approved", ago(2))), 201).receipt!) as any;
    const purpose = { referenceId: "marketing", name: "Marketing, reworded", legalGround: "consent", dataGroups: [t.email, t.location], processors: [t.processor], recipients: [t.recipient], controllers: [t.controller] };
    ok(await t.api("PUT", `/configurations/purposes/${t.marketing}`, { ...purpose, requireNewConsent: false }));
    const after = decodeJwt(ok(await t.api("POST", "/permissions", permissionBody(t, "approved", ago(1))), 201).receipt!) as any;
    expect(after.purposes[0].version).toBe(before.purposes[0].version);
    expect(after.purposes[0].contentSha256).not.toBe(before.purposes[0].contentSha256);
    const version = await env.DB.prepare("SELECT content FROM purpose_versions WHERE purpose_id = ? AND version = '1'").bind(t.marketing).first<{ content: string }>();
    expect(after.purposes[0].contentSha256).toBe(await sha256(canonical(JSON.parse(version!.content))));
  });
});

describe("receipts switched off (RECEIPTS=off)", () => {
  it("leave the record, its log entry and the chain of later receipts intact, only unsigned", async () => {
    const t = await configuredTenant();
    const off = async (method: string, path: string, body?: unknown) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(
        new Request(`${origin}/privacy/v2/projects/${t.projectId}${path}`, {
          method,
          headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        { ...env, RECEIPTS: "off" },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return { status: res.status, headers: res.headers, body: await res.json<any>() };
    };
    const signed = ok(await t.api("POST", "/permissions", permissionBody(t, "approved", ago(3))), 201);
    const unsigned = ok(await off("POST", "/permissions", permissionBody(t, "denied", ago(2))), 201);
    expect(unsigned).not.toHaveProperty("receipt");
    expectProblem(await t.api("GET", `/permissions/${unsigned.requestId}/receipt`), 404, "not_found");
    // The next signed receipt names the last one that exists.
    const next = ok(await t.api("POST", "/permissions", permissionBody(t, "approved", ago(1))), 201);
    expect(decodeJwt(next.receipt!).previousReceiptHash).toBe(await sha256(signed.receipt!));
    await seal();
    expect(await audit(t)).toMatchObject({ ok: true, entries: 3, sealed: 3 });
  });
});

describe("the tamper-evident log", () => {
  it("seals entries into signed heads whose inclusion and consistency proofs verify independently", async () => {
    const t = await configuredTenant();
    expectProblem(await t.api("GET", "/log/head"), 404, "not_sealed");
    const receipts: string[] = [];
    for (let i = 0; i < 3; i++) receipts.push(ok(await t.api("POST", "/permissions", permissionBody(t, i % 2 ? "denied" : "approved", ago(5 - i))), 201).receipt!);
    await seal();
    const head = ok(await t.api("GET", "/log/head"));
    expect(head.treeSize).toBe(3);
    const { payload } = await compactVerify(head.signedHead, await publicKeys());
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({ projectId: t.projectId, treeSize: 3, rootHash: head.rootHash, timestamp: head.timestamp, previousHeadHash: null });
    for (const receipt of receipts) {
      const proof = ok(await t.api("GET", `/log/proofs/inclusion?receiptHash=${await sha256(receipt)}`));
      expect(await verifyInclusion(proof.leafIndex, proof.treeSize, await leafOf(proof.entryHash), proof.auditPath, head.rootHash)).toBe(true);
      // A wrong leaf or root does not.
      expect(await verifyInclusion(proof.leafIndex, proof.treeSize, await leafOf("00".repeat(32)), proof.auditPath, head.rootHash)).toBe(false);
    }
    for (let i = 0; i < 4; i++) ok(await t.api("POST", "/permissions", permissionBody(t, "approved", ago(1))), 201);
    await seal();
    const later = ok(await t.api("GET", "/log/head"));
    expect(later).toMatchObject({ treeSize: 7, previousHeadHash: head.headHash });
    const consistency = ok(await t.api("GET", "/log/proofs/consistency?first=3&second=7"));
    expect(await verifyConsistency(3, 7, head.rootHash, later.rootHash, consistency.proof)).toBe(true);
    expect(await verifyConsistency(3, 7, later.rootHash, head.rootHash, consistency.proof)).toBe(false);
    // Every leaf of the larger tree proves inclusion too (sizes that are and are not powers of two).
    for (let index = 0; index < 7; index++) {
      const proof = ok(await t.api("GET", `/log/proofs/inclusion?index=${index}`));
      expect(await verifyInclusion(index, 7, await leafOf(proof.entryHash), proof.auditPath, later.rootHash)).toBe(true);
      const old = ok(await t.api("GET", `/log/proofs/inclusion?index=${Math.min(index, 2)}&treeSize=3`));
      expect(await verifyInclusion(Math.min(index, 2), 3, await leafOf(old.entryHash), old.auditPath, head.rootHash)).toBe(true);
    }
    expect((await audit(t)).ok).toBe(true);
  });

  it("extends each head from the previous one's right edge, giving the root an independent re-derivation gives", async () => {
    const t = await configuredTenant();
    let written = 0;
    for (const size of [1, 2, 3, 5, 8, 13]) {
      for (; written < size; written++) ok(await t.api("POST", "/permissions", permissionBody(t, "approved", ago(20 - written))), 201);
      await seal();
      expect(ok(await t.api("GET", "/log/head")).treeSize).toBe(size);
      expect(await audit(t)).toMatchObject({ ok: true, entries: size, sealed: size });
    }
    const heads = ok(await t.api("GET", "/log/heads")).heads;
    expect(heads.map((h: any) => h.treeSize)).toEqual([1, 2, 3, 5, 8, 13]);
    // Proofs from the stored subtrees hold for every pair of heads and every leaf of every head.
    for (const older of heads) {
      for (const newer of heads.filter((h: any) => h.treeSize >= older.treeSize)) {
        const { proof } = ok(await t.api("GET", `/log/proofs/consistency?first=${older.treeSize}&second=${newer.treeSize}`));
        expect(await verifyConsistency(older.treeSize, newer.treeSize, older.rootHash, newer.rootHash, proof), `${older.treeSize}→${newer.treeSize}`).toBe(true);
      }
      for (let index = 0; index < older.treeSize; index++) {
        const proof = ok(await t.api("GET", `/log/proofs/inclusion?index=${index}&treeSize=${older.treeSize}`));
        expect(await verifyInclusion(index, older.treeSize, await leafOf(proof.entryHash), proof.auditPath, older.rootHash), `${index} in ${older.treeSize}`).toBe(true);
      }
    }
    // Nothing new: the cron signs no further head.
    await seal();
    expect(ok(await t.api("GET", "/log/heads")).heads).toHaveLength(6);
  });

  it("verify-log names the first entry that no longer matches a hand-edited row", async () => {
    const t = await configuredTenant();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(ok(await t.api("POST", "/permissions", permissionBody(t, "approved", ago(5 - i))), 201).requestId);
    await seal();
    expect(await audit(t)).toMatchObject({ ok: true, entries: 4, sealed: 4 });
    // An operator edits a stored request by hand (as `wrangler d1 execute --local` would).
    await env.DB.prepare("UPDATE requests SET request = json_set(request, '$.purposes[0].status', 'denied') WHERE id = ?").bind(ids[2]).run();
    const report = await audit(t);
    expect(report.ok).toBe(false);
    expect(report.firstMismatch).toMatchObject({ index: 2, message: expect.stringContaining(ids[2]) });
  });

  it("verify-log detects an edited log entry, even with its hash recomputed, at the head that sealed it", async () => {
    const t = await configuredTenant();
    for (let i = 0; i < 5; i++) ok(await t.api("POST", "/permissions", permissionBody(t, "approved", ago(5 - i))), 201);
    await seal();
    const seq = (await env.DB.prepare("SELECT seq FROM log_entries WHERE project_id = ? ORDER BY seq LIMIT 1 OFFSET 1").bind(t.projectId).first<{ seq: number }>())!.seq;
    await env.DB.prepare("UPDATE log_entries SET payload = json_set(payload, '$.status', 'rejected') WHERE seq = ?").bind(seq).run();
    expect((await audit(t)).firstMismatch).toMatchObject({ index: 1, message: expect.stringContaining("hash") });
    // Recompute the entry hash to match the edit: the signed root no longer does.
    const row = await env.DB.prepare("SELECT payload FROM log_entries WHERE seq = ?").bind(seq).first<{ payload: string }>();
    await env.DB.prepare("UPDATE log_entries SET entry_hash = ? WHERE seq = ?").bind(await sha256(canonical(JSON.parse(row!.payload))), seq).run();
    const report = await audit(t);
    expect(report.ok).toBe(false);
    expect(report.problems).toContainEqual(expect.objectContaining({ head: 5, message: expect.stringContaining("signed root") }));
  });

  it("stays verifiable after an erasure, without the erased identity's payloads", async () => {
    const t = await configuredTenant();
    const first = ok(await t.api("POST", "/permissions", permissionBody(t, "approved", ago(2))), 201);
    const otherIdentity = ok(await t.api("POST", "/identities", {}), 201).identityId;
    ok(await t.api("POST", "/permissions", permissionBody(t, "approved", ago(1), otherIdentity)), 201);
    await seal();
    const before = ok(await t.api("GET", "/log/head"));
    const proof = ok(await t.api("GET", `/log/proofs/inclusion?receiptHash=${await sha256(first.receipt!)}`));
    expect((await t.api("DELETE", `/identities/${t.identityId}`)).status).toBe(204);
    await seal();
    const entries = ok(await t.api("GET", "/log/entries")).entries;
    expect(entries.map((e: any) => e.payload.kind ?? null)).toEqual([null, "permission.created", "identity.deleted"]);
    expect(entries[0].payload).toEqual({ erasedBy: entries[2].payload!.subject });
    expect(JSON.stringify(entries)).not.toContain(t.identityId);
    const rows = await env.DB.prepare("SELECT identity_id, request_id, receipt_hash, payload FROM log_entries WHERE project_id = ?").bind(t.projectId).all();
    expect(JSON.stringify(rows.results)).not.toContain(t.identityId);
    const after = ok(await t.api("GET", "/log/head"));
    const consistency = ok(await t.api("GET", `/log/proofs/consistency?first=${before.treeSize}&second=${after.treeSize}`));
    expect(await verifyConsistency(before.treeSize, after.treeSize, before.rootHash, after.rootHash, consistency.proof)).toBe(true);
    const still = ok(await t.api("GET", `/log/proofs/inclusion?index=${proof.leafIndex}`));
    expect(still.entryHash).toBe(proof.entryHash);
    expect(await verifyInclusion(proof.leafIndex, after.treeSize, await leafOf(still.entryHash), still.auditPath, after.rootHash)).toBe(true);
    expect(await audit(t)).toMatchObject({ ok: true, entries: 3 });
    // Removing a payload by hand, as if erased, is not an erasure: no deletion entry names it.
    const entriesNow = await env.DB.prepare("SELECT seq FROM log_entries WHERE project_id = ? ORDER BY seq").bind(t.projectId).all<{ seq: number }>();
    await env.DB.prepare("UPDATE log_entries SET payload = ? WHERE seq = ?").bind(JSON.stringify({ erasedBy: "f".repeat(64) }), entriesNow.results[1].seq).run();
    expect((await audit(t)).firstMismatch).toMatchObject({ index: 1, message: expect.stringContaining("without a later identity deletion") });
  });
});
