// The SQL of moving one project between D1 databases (docs/operations.md#more-than-one-database-project-to-database-map), with no I/O: which rows are the project's,
// how to write them into another database, how to delete them from the old one. scripts/move-project.mjs runs it
// through `wrangler d1 execute`; test/api/databases.test.ts runs it against two real databases.

/** Every table holding a project's rows, parents before children (foreign keys), and how to select its rows. */
export const projectTables = [
  ["projects", "id = :project"],
  ["clients", "project_id = :project"],
  ["parties", "project_id = :project"],
  ["data_groups", "project_id = :project"],
  ["purposes", "project_id = :project"],
  ["purpose_versions", "purpose_id IN (SELECT id FROM purposes WHERE project_id = :project)"],
  ["identities", "project_id = :project"],
  ["aliases", "project_id = :project"],
  ["permission_states", "project_id = :project"],
  ["requests", "project_id = :project"],
  ["request_purposes", "project_id = :project"],
  ["log_entries", "project_id = :project"],
  ["log_heads", "project_id = :project"],
  ["log_nodes", "project_id = :project"],
  ["ui_strings", "project_id = :project"],
  ["scans", "project_id = :project"],
  ["blocking_entries", "project_id = :project"],
  ["webhooks", "project_id = :project"],
  ["events", "project_id = :project"],
  ["deliveries", "project_id = :project"],
  ["delivery_attempts", "project_id = :project"],
];

/**
 * Not moved: the hub's tables (sms_clients, sms_messages and its trail) stay in DB whatever the project, keyed by
 * project and client ids, which a move keeps (docs/operations-cron.md#moving-a-project-that-uses-the-hub). Nor the
 * organizations' tables that name a project (below): which organization owns it, members' roles in it, and the
 * organization's hash-chained audit trail, which records actions on the project and must stay whole where it is.
 */
export const organizationTables = ["organization_projects", "project_roles", "audit_entries"];

const literal = (value) => {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  return `'${String(value).replaceAll("'", "''")}'`;
};

/** Project ids are `prj_` plus letters and digits; anything else is refused before it reaches SQL. */
export function projectLiteral(projectId) {
  if (!/^[A-Za-z0-9_-]+$/.test(projectId)) throw new Error(`Not a project id: ${projectId}`);
  return literal(projectId);
}

const where = (condition, projectId) => condition.replaceAll(":project", projectLiteral(projectId));

/** One SELECT per table: the project's rows (run each, keep the results in the same order). */
export const exportQueries = (projectId) => projectTables.map(([table, condition]) => `SELECT * FROM "${table}" WHERE ${where(condition, projectId)}`);


/**
 * INSERT statements writing the exported rows (`rows[i]` from `exportQueries(projectId)[i]`) into the target,
 * parents first, then the project's configuration version as it was (the target's triggers bump it on import), and
 * the target's idle-visitor watermark moved back below the oldest moved identity: the retention job examines each
 * identity once, walking ids from its watermark (worker/retention/jobs.ts), and moved identities keep their old ids.
 */
export function importStatements(projectId, rows) {
  const statements = projectTables.flatMap(([table], i) =>
    (rows[i] ?? []).map((row) => {
      const columns = Object.keys(row);
      return `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map((c) => literal(row[c])).join(", ")});`;
    }),
  );
  const project = rows[0]?.[0];
  if (project) statements.push(`UPDATE "projects" SET config_version = ${literal(project.config_version)} WHERE id = ${projectLiteral(projectId)};`);
  const identityIds = (rows[projectTables.findIndex(([table]) => table === "identities")] ?? []).map((row) => String(row.id)).sort();
  if (identityIds.length > 0) {
    // A proper prefix of the oldest id sorts just below it.
    const below = literal(identityIds[0].slice(0, -1));
    statements.push(`UPDATE "job_watermarks" SET watermark = ${below} WHERE job = 'idle-visitors' AND watermark >= ${below};`);
  }
  return statements;
}

/** DELETE statements removing the project from the source, children first. */
export const deleteStatements = (projectId) =>
  [...projectTables].reverse().map(([table, condition]) => `DELETE FROM "${table}" WHERE ${where(condition, projectId)};`);
