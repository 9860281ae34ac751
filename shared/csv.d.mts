/** RFC 4180 rows (shared/csv.mjs). */
export function parseCsv(text: string): string[][];
