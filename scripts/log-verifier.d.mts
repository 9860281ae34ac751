export function canonical(value: unknown): string;
export function sha256(text: string): Promise<string>;
export function merkleRoot(entryHashes: string[]): Promise<string>;
export function leafOf(entryHash: string): Promise<string>;
export function verifyInclusion(leafIndex: number, treeSize: number, leaf: string, path: string[], root: string): Promise<boolean>;
export function verifyConsistency(first: number, second: number, firstRoot: string, secondRoot: string, proof: string[]): Promise<boolean>;
export type AuditProblem = { index?: number; head?: number; message: string };
export function auditLog(options: { get: (path: string) => Promise<any>; projectId: string }): Promise<{
  ok: boolean;
  entries: number;
  heads: number;
  sealed: number;
  problems: AuditProblem[];
  firstMismatch: AuditProblem | null;
}>;
