// A project's feature settings are one JSON column of `projects` each (docs/architecture.md#a-projects-settings).
// Migration 0038 brings the two that had tables of their own, the privacy center's settings and the blocking switch,
// onto the project: an existing deployment's settings read the same afterwards, and a project without a row keeps
// the defaults.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, newProject, ok } from "./helpers";

/** The statements of a migration whose text matches `pattern` (the migrations as the test setup applied them). */
const statementsOf = (migration: string, pattern: RegExp) =>
  env.TEST_MIGRATIONS.find((m) => m.name.startsWith(migration))!.queries.filter((query) => pattern.test(query));

/** The two tables as they stood before 0038 (created by 0021 and 0024, a column added by 0027). */
async function tablesBefore() {
  const statements = [
    ...statementsOf("0021_", /CREATE TABLE `privacy_center_settings`/),
    ...statementsOf("0024_", /CREATE TABLE `blocking_lists`/),
    ...statementsOf("0027_", /ALTER TABLE `privacy_center_settings`/),
  ];
  expect(statements).toHaveLength(3);
  for (const statement of statements) await env.DB.prepare(statement).run();
}

describe("feature settings on the project (migration 0038)", () => {
  it("moves stored privacy-center settings and blocking switches onto their projects, and drops the old tables", async () => {
    await tablesBefore();
    const [withSms, withoutCountries, untouched] = [await newProject(), await newProject(), await newProject()];
    const updated = new Date().toISOString();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO privacy_center_settings (project_id, channels, sms_countries, retention_days, theme, updated) VALUES (?, ?, ?, ?, ?, ?)").bind(
        withSms.projectId,
        JSON.stringify({ sms: { aliasType: "urn:svc:phone" } }),
        JSON.stringify(["SE", "NO"]),
        30,
        JSON.stringify({ "--assent-accent": "#0a7" }),
        updated,
      ),
      env.DB.prepare("INSERT INTO privacy_center_settings (project_id, channels, sms_countries, retention_days, theme, updated) VALUES (?, ?, NULL, ?, ?, ?)").bind(
        withoutCountries.projectId,
        JSON.stringify({ email: { aliasType: "urn:svc:email" } }),
        365,
        "{}",
        updated,
      ),
      env.DB.prepare("INSERT INTO blocking_lists (project_id, enabled, updated) VALUES (?, 1, ?)").bind(withSms.projectId, updated),
      env.DB.prepare("INSERT INTO blocking_lists (project_id, enabled, updated) VALUES (?, 0, ?)").bind(withoutCountries.projectId, updated),
    ]);

    const moves = statementsOf("0038_", /UPDATE `projects`|DROP TABLE/);
    expect(moves).toHaveLength(4);
    for (const statement of moves) await env.DB.prepare(statement).run();

    const settingsOf = async (projectId: string) => ({
      center: ok(await admin("GET", `/projects/${projectId}/privacy-center`)),
      blocking: (ok(await admin("GET", `/projects/${projectId}/blocking`)) as { enabled: boolean }).enabled,
    });
    expect(await settingsOf(withSms.projectId)).toEqual({
      center: { channels: { sms: { aliasType: "urn:svc:phone" } }, smsCountries: ["SE", "NO"], retentionDays: 30, theme: { "--assent-accent": "#0a7" } },
      blocking: true,
    });
    expect(await settingsOf(withoutCountries.projectId)).toEqual({
      center: { channels: { email: { aliasType: "urn:svc:email" } }, retentionDays: 365, theme: {} },
      blocking: false,
    });
    expect(await settingsOf(untouched.projectId)).toEqual({ center: { channels: {}, retentionDays: 90, theme: {} }, blocking: false });
    const left = await env.DB.prepare("SELECT name FROM sqlite_master WHERE name IN ('privacy_center_settings', 'blocking_lists')").all();
    expect(left.results).toEqual([]);
  });

  it("writes each setting to its project's row, without touching the project's revision or the widget's configuration version", async () => {
    const { projectId } = await newProject();
    const before = await env.DB.prepare("SELECT revision, config_version FROM projects WHERE id = ?").bind(projectId).first();
    const center = { channels: { email: { aliasType: "urn:svc:email" } }, retentionDays: 60, theme: {} };
    ok(await admin("PUT", `/projects/${projectId}/privacy-center`, center));
    ok(await admin("PUT", `/projects/${projectId}/blocking`, { enabled: true, entries: [] }));
    const row = await env.DB.prepare("SELECT revision, config_version, privacy_center, blocking FROM projects WHERE id = ?").bind(projectId).first<Record<string, unknown>>();
    expect({ ...row, privacy_center: JSON.parse(row!.privacy_center as string), blocking: JSON.parse(row!.blocking as string) }).toEqual({
      ...before,
      privacy_center: center,
      blocking: { enabled: true },
    });
  });
});
