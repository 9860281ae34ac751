/**
 * An independent verifier of the log's proofs, written from RFC 9162 §2.1.3.2 (inclusion) and §2.1.4.2
 * (consistency) alone: it shares no code with the Worker (worker/proof/merkle.ts generates the proofs).
 */
const fromHex = (hex: string) => new Uint8Array((hex.match(/../g) ?? []).map((pair) => parseInt(pair, 16)));
const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

async function hash(...parts: Uint8Array[]) {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return new Uint8Array(await crypto.subtle.digest("SHA-256", all));
}
const node = (left: Uint8Array, right: Uint8Array) => hash(Uint8Array.of(1), left, right);

/** The leaf of an entry: SHA-256(0x00 || entry hash bytes), as docs/proof.md#tamper-evident-log documents. */
export const leafOf = async (entryHashHex: string) => toHex(await hash(Uint8Array.of(0), fromHex(entryHashHex)));

export async function verifyInclusion(leafIndex: number, treeSize: number, leafHex: string, path: string[], rootHex: string) {
  if (leafIndex >= treeSize) return false;
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = fromHex(leafHex);
  for (const p of path.map(fromHex)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = await node(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn >>= 1;
          sn >>= 1;
        }
      }
    } else {
      r = await node(r, p);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return sn === 0 && toHex(r) === rootHex;
}

export async function verifyConsistency(first: number, second: number, firstRoot: string, secondRoot: string, proof: string[]) {
  if (first === second) return proof.length === 0 && firstRoot === secondRoot;
  if (proof.length === 0) return false;
  const path = (first & (first - 1)) === 0 ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn >>= 1;
    sn >>= 1;
  }
  let fr = fromHex(path[0]);
  let sr = fromHex(path[0]);
  for (const c of path.slice(1).map(fromHex)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = await node(c, fr);
      sr = await node(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn >>= 1;
          sn >>= 1;
        }
      }
    } else {
      sr = await node(sr, c);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return toHex(fr) === firstRoot && toHex(sr) === secondRoot && sn === 0;
}
