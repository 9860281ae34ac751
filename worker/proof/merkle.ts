/**
 * Merkle tree hashing of RFC 9162 §2.1 (Certificate Transparency 2.0) over SHA-256: a leaf hashes 0x00 || data,
 * an interior node 0x01 || left || right; the tree of n leaves splits at k, the largest power of two below n.
 * This file generates roots and proofs; test/api/log-verifier.ts checks them with the RFC's verification
 * algorithms, written separately.
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

/** Largest power of two strictly smaller than n (n > 1). */
const split = (n: number) => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};

/** MTH(D[n]) over leaf hashes already computed (the empty tree is SHA-256 of nothing). */
export async function rootOf(leaves: Bytes[]): Promise<Bytes> {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return leaves[0];
  const k = split(leaves.length);
  return nodeHash(await rootOf(leaves.slice(0, k)), await rootOf(leaves.slice(k)));
}

/** PATH(m, D[n]) of RFC 9162 §2.1.3.1: the audit path of leaf m. */
export async function inclusionPath(m: number, leaves: Bytes[]): Promise<Bytes[]> {
  if (leaves.length <= 1) return [];
  const k = split(leaves.length);
  return m < k
    ? [...(await inclusionPath(m, leaves.slice(0, k))), await rootOf(leaves.slice(k))]
    : [...(await inclusionPath(m - k, leaves.slice(k))), await rootOf(leaves.slice(0, k))];
}

/** PROOF(m, D[n]) of RFC 9162 §2.1.4.1: the consistency proof between the trees of sizes m and n. */
export function consistencyProof(m: number, leaves: Bytes[]): Promise<Bytes[]> {
  return subproof(m, leaves, true);
}

async function subproof(m: number, leaves: Bytes[], complete: boolean): Promise<Bytes[]> {
  const n = leaves.length;
  if (m === n) return complete ? [] : [await rootOf(leaves)];
  const k = split(n);
  return m <= k
    ? [...(await subproof(m, leaves.slice(0, k), complete)), await rootOf(leaves.slice(k))]
    : [...(await subproof(m - k, leaves.slice(k), false)), await rootOf(leaves.slice(0, k))];
}

/**
 * A tree's right edge: the roots of its perfect subtrees, largest first (one per set bit of the size). Appending
 * leaves to it and folding it gives MTH without re-reading old leaves, so sealing costs O(new entries · log n).
 */
export async function extend(frontier: Bytes[], size: number, leaves: Bytes[]): Promise<Bytes[]> {
  const edge = [...frontier];
  const sizes = edgeSizes(size);
  for (const leaf of leaves) {
    edge.push(leaf);
    sizes.push(1);
    while (sizes.length > 1 && sizes.at(-1) === sizes.at(-2)) {
      const right = edge.pop()!;
      const left = edge.pop()!;
      edge.push(await nodeHash(left, right));
      sizes.pop();
      sizes.push(sizes.pop()! * 2);
    }
  }
  return edge;
}

const edgeSizes = (size: number) => {
  const sizes: number[] = [];
  for (let bit = 2 ** 52; bit >= 1; bit /= 2) if (Math.floor(size / bit) % 2 === 1) sizes.push(bit);
  return sizes;
};

/** MTH of the tree whose right edge this is (RFC 9162: the left subtree is always the larger power of two). */
export async function rootOfEdge(edge: Bytes[]): Promise<Bytes> {
  if (edge.length === 0) return rootOf([]);
  let root = edge[edge.length - 1];
  for (let i = edge.length - 2; i >= 0; i--) root = await nodeHash(edge[i], root);
  return root;
}

export const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
export const fromHex = (hex: string): Bytes => new Uint8Array((hex.match(/../g) ?? []).map((pair) => parseInt(pair, 16)));
