// The independent verifier of a project's tamper-evident log: it re-derives the log from what the API serves, and
// checks the log's proofs, with nothing but the documented algorithms (docs/proof.md#tamper-evident-log): canonical
// JSON, SHA-256, RFC 9162 Merkle hashing and proofs, ES256 over the JWKS. It imports none of the Worker's code (which
// produces what this checks). The one home of these algorithms outside the Worker: `npm run verify-log`
// (scripts/verify-log.mjs) and the tests (test/api/proof.test.ts) import it.
import { compactVerify, createLocalJWKSet } from "jose";

const encoder = new TextEncoder();

/** Object keys sorted, no whitespace, undefined members left out. */
export function canonical(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item ?? null)).join(",")}]`;
  return `{${Object.keys(value)
    .filter((key) => value[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
    .join(",")}}`;
}

const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
const unhex = (text) => new Uint8Array((text.match(/../g) ?? []).map((pair) => parseInt(pair, 16)));
const digest = async (...parts) => {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return new Uint8Array(await crypto.subtle.digest("SHA-256", all));
};
export const sha256 = async (text) => hex(await digest(encoder.encode(text)));

/** RFC 9162 §2.1.1: a leaf is H(0x00 || entry hash), a node H(0x01 || left || right). */
const leafBytes = (entryHash) => digest(Uint8Array.of(0), unhex(entryHash));
const node = (left, right) => digest(Uint8Array.of(1), left, right);

/** The leaf of an entry (hex), from its entry hash (hex). */
export const leafOf = async (entryHash) => hex(await leafBytes(entryHash));

/** MTH of RFC 9162 §2.1.1, over entry hashes (hex). */
export async function merkleRoot(entryHashes) {
  if (entryHashes.length === 0) return hex(await digest());
  let level = await Promise.all(entryHashes.map(leafBytes));
  // Pairing left to right and carrying an odd last node up gives the same root as RFC 9162's split at the
  // largest power of two.
  while (level.length > 1) {
    const next = [];
    for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? await node(level[i], level[i + 1]) : level[i]);
    level = next;
  }
  return hex(level[0]);
}

/** RFC 9162 §2.1.3.2: does `path` prove leaf `leafIndex` (hex) in the tree of `treeSize` leaves with root `root`? */
export async function verifyInclusion(leafIndex, treeSize, leaf, path, root) {
  if (leafIndex >= treeSize) return false;
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = unhex(leaf);
  for (const p of path.map(unhex)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = await node(p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn >>= 1;
        sn >>= 1;
      }
    } else {
      r = await node(r, p);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return sn === 0 && hex(r) === root;
}

/** RFC 9162 §2.1.4.2: does `proof` show the tree of `second` leaves (root `secondRoot`) extends the one of `first`? */
export async function verifyConsistency(first, second, firstRoot, secondRoot, proof) {
  if (first === second) return proof.length === 0 && firstRoot === secondRoot;
  if (proof.length === 0) return false;
  const path = (first & (first - 1)) === 0 ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn >>= 1;
    sn >>= 1;
  }
  let fr = unhex(path[0]);
  let sr = unhex(path[0]);
  for (const c of path.slice(1).map(unhex)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = await node(c, fr);
      sr = await node(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn >>= 1;
        sn >>= 1;
      }
    } else {
      sr = await node(sr, c);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return hex(fr) === firstRoot && hex(sr) === secondRoot && sn === 0;
}

const recordHashOf = (family, r) =>
  sha256(canonical({ requestId: r.requestId, projectId: r.projectId, family, identityId: r.identityId, requested: r.requested, meta: r.meta, request: r.request, created: r.created }));

const families = { permission: "permissions", objection: "objections", erasure: "erasures", access: "accesses" };

async function pages(get, path, key, next) {
  const items = [];
  let query = next(undefined);
  while (query !== null) {
    const page = await get(`${path}${query}`);
    items.push(...page[key]);
    query = next(page);
  }
  return items;
}

/**
 * Audits one project. `get(path)` returns the parsed JSON of a GET on the deployment (authenticated as a backend
 * client of the project). Returns every mismatch found; `firstMismatch` names the first entry that does not match.
 */
export async function auditLog({ get, projectId }) {
  const root = `/privacy/v2/projects/${projectId}`;
  const jwks = createLocalJWKSet(await get("/.well-known/jwks.json"));
  const entries = await pages(get, `${root}/log/entries`, "entries", (page) =>
    page === undefined ? "?start=0&limit=1000" : page.entries.length < 1000 ? null : `?start=${page.entries.at(-1).index + 1}&limit=1000`,
  );
  const heads = await pages(get, `${root}/log/heads`, "heads", (page) =>
    page === undefined ? "?after=0&limit=500" : page.heads.length < 500 ? null : `?after=${page.heads.at(-1).treeSize}&limit=500`,
  );
  const records = new Map();
  for (const [family, segment] of Object.entries(families)) {
    const items = await pages(get, `${root}/${segment}`, "items", (page) =>
      page === undefined ? "?limit=200" : page.nextCursor ? `?limit=200&cursor=${encodeURIComponent(page.nextCursor)}` : null,
    );
    for (const item of items) records.set(item.requestId, { family, record: item });
  }
  const problems = [];
  const latest = new Map();
  const erased = [];
  const deletions = new Map();
  for (const entry of entries) {
    const { index, entryHash, payload } = entry;
    if (payload === null) {
      problems.push({ index, message: "the entry's payload is gone, without an erasure naming it" });
      continue;
    }
    if (Object.keys(payload).length === 1 && typeof payload.erasedBy === "string") {
      erased.push(entry); // erased: only the hash remains (the tree checks it) and the deletion that erased it
      continue;
    }
    if (payload.kind === "identity.deleted" && payload.subject) deletions.set(payload.subject, index);
    if ((await sha256(canonical(payload))) !== entryHash) {
      problems.push({ index, message: "the entry's payload does not hash to its entry hash" });
      continue;
    }
    if (!payload.requestId) continue;
    const found = records.get(payload.requestId);
    if (!found) {
      problems.push({ index, message: `request ${payload.requestId} is missing, though its identity was not erased` });
      continue;
    }
    if ((await recordHashOf(found.family, found.record)) !== payload.recordHash) {
      problems.push({ index, message: `request ${payload.requestId} no longer matches what was recorded` });
    }
    latest.set(payload.requestId, entry);
  }
  for (const { index, payload } of erased) {
    if (!(deletions.get(payload.erasedBy) > index)) problems.push({ index, message: "the entry's payload was removed without a later identity deletion" });
  }
  for (const [requestId, entry] of latest) {
    const { record } = records.get(requestId);
    const status = record.permissionStatus ?? record.status;
    if (status !== entry.payload.status) problems.push({ index: entry.index, message: `request ${requestId} has status ${status}, the log says ${entry.payload.status}` });
    if (record.receipt && (await sha256(record.receipt)) !== entry.payload.receiptHash) {
      problems.push({ index: entry.index, message: `request ${requestId}'s receipt is not the one the log holds` });
    }
  }
  let previous = null;
  for (const head of heads) {
    const claims = await compactVerify(head.signedHead, jwks).then(
      ({ payload, protectedHeader }) => (protectedHeader.typ === "assent-log-head+jwt" ? JSON.parse(new TextDecoder().decode(payload)) : null),
      () => null,
    );
    const from = previous?.treeSize ?? 0;
    if (!claims || claims.projectId !== projectId || claims.treeSize !== head.treeSize || claims.rootHash !== head.rootHash) {
      problems.push({ head: head.treeSize, message: "the head's signature or claims do not verify" });
    } else if ((await sha256(head.signedHead)) !== head.headHash || claims.previousHeadHash !== (previous?.headHash ?? null)) {
      problems.push({ head: head.treeSize, message: "the head does not link to the previous head" });
    } else if (head.treeSize > entries.length || (await merkleRoot(entries.slice(0, head.treeSize).map((e) => e.entryHash))) !== head.rootHash) {
      problems.push({ index: from, head: head.treeSize, message: `entries ${from}..${head.treeSize - 1} do not give the signed root` });
    }
    previous = head;
  }
  const indexed = problems.filter((p) => p.index !== undefined).sort((a, b) => a.index - b.index);
  return { ok: problems.length === 0, entries: entries.length, heads: heads.length, sealed: previous?.treeSize ?? 0, problems, firstMismatch: indexed[0] ?? problems[0] ?? null };
}
