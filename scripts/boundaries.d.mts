export function sidesOf(root: string): string[];
export const mayAlsoUse: Record<string, string[]>;
export function relativeImports(root: string, file: string): string[];
export function crossings(root: string): string[];
