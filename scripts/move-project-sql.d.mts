// Types of move-project-sql.mjs, for the tests that run it.
export const projectTables: [table: string, condition: string][];
export const organizationTables: string[];
export function projectLiteral(projectId: string): string;
export function exportQueries(projectId: string): string[];
export function importStatements(projectId: string, rows: Record<string, unknown>[][]): string[];
export function deleteStatements(projectId: string): string[];
