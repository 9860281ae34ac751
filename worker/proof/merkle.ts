/**
 * Merkle tree hashing of RFC 9162 §2.1 (Certificate Transparency 2.0) over SHA-256: a leaf hashes 0x00 || data,
 * an interior node 0x01 || left || right; the tree of n leaves splits at k, the largest power of two below n.
 *
 * Every perfect subtree's root is stored when it completes (level L, index i: leaves [i·2^L, (i+1)·2^L)), so a
 * head extends the previous one's right edge and a proof needs O(log² n) stored nodes, never the leaves. This file
 * generates roots and proofs; scripts/log-verifier.mjs checks them with the RFC's verification algorithms,
 * written separately.
 */
type Bytes = Uint8Array<ArrayBuffer>;

const sha256 = async (...parts: Uint8Array[]): Promise<Bytes> => {
  const joined = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.byteLength;
  }
  return new Uint8Array(await crypto.subtle.digest("SHA-256", joined));
};

export const leafHash = (data: Uint8Array) => sha256(Uint8Array.of(0), data);
export const nodeHash = (left: Uint8Array, right: Uint8Array) => sha256(Uint8Array.of(1), left, right);

/** A perfect subtree: `level` 0 is a leaf. */
export type NodeRef = { level: number; index: number };
export type StoredNode = NodeRef & { hash: Bytes };

/** Largest power of two strictly smaller than n (n > 1). */
const split = (n: number) => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};

/**
 * The perfect subtrees a range [a, b) of a tree decomposes into, left to right. The ranges proofs name start at a
 * multiple of their largest power-of-two part, so folding these from the right gives MTH(D[a:b]).
 */
export function perfectParts(a: number, b: number): NodeRef[] {
  const parts: NodeRef[] = [];
  while (a < b) {
    let level = 0;
    while (a % 2 ** (level + 1) === 0 && a + 2 ** (level + 1) <= b) level++;
    parts.push({ level, index: a / 2 ** level });
    a += 2 ** level;
  }
  return parts;
}

/** MTH of a range from its perfect parts' hashes (the empty tree is SHA-256 of nothing). */
export async function foldParts(hashes: Bytes[]): Promise<Bytes> {
  if (hashes.length === 0) return sha256();
  let root = hashes[hashes.length - 1];
  for (let i = hashes.length - 2; i >= 0; i--) root = await nodeHash(hashes[i], root);
  return root;
}

/** The ranges whose roots make PATH(m, D[a:b]) of RFC 9162 §2.1.3.1, in path order. */
export function inclusionRanges(m: number, a: number, b: number): [number, number][] {
  if (b - a <= 1) return [];
  const k = split(b - a);
  return m < k ? [...inclusionRanges(m, a, a + k), [a + k, b]] : [...inclusionRanges(m - k, a + k, b), [a, a + k]];
}

/** The ranges whose roots make PROOF(m, D[n]) of RFC 9162 §2.1.4.1, in proof order. */
export function consistencyRanges(m: number, n: number): [number, number][] {
  const sub = (m: number, a: number, b: number, complete: boolean): [number, number][] => {
    if (m === b - a) return complete ? [] : [[a, b]];
    const k = split(b - a);
    return m <= k ? [...sub(m, a, a + k, complete), [a + k, b]] : [...sub(m - k, a + k, b, false), [a, a + k]];
  };
  return m === 0 || m > n ? [] : sub(m, 0, n, true);
}

/**
 * Appends leaves to a tree of `size` given its right edge (the roots of its perfect subtrees, largest first).
 * Returns the new edge and every perfect subtree completed on the way (leaves included), to be stored.
 */
export async function extend(edge: Bytes[], size: number, leaves: Bytes[]): Promise<{ edge: Bytes[]; completed: StoredNode[] }> {
  const stack = perfectParts(0, size).map((ref, i) => ({ ...ref, hash: edge[i] }));
  const completed: StoredNode[] = [];
  let at = size;
  for (const hash of leaves) {
    let node: StoredNode = { level: 0, index: at++, hash };
    completed.push(node);
    while (stack.length && stack[stack.length - 1].level === node.level) {
      const left = stack.pop()!;
      node = { level: node.level + 1, index: left.index / 2, hash: await nodeHash(left.hash, node.hash) };
      completed.push(node);
    }
    stack.push(node);
  }
  return { edge: stack.map((node) => node.hash), completed };
}
