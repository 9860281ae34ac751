import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { ConsentModeSettings } from "../consent-mode/settings";
import type { GppSettings } from "../gpp/settings";
import type { AnalyticsSettings } from "../analytics/settings";
import type { JurisdictionRules } from "../jurisdictions/rules";
import type { ScanSchedule } from "../scans/table";
import type { BlockingSettings } from "../blocking/table";
import type { Settings as PrivacyCenterSettings } from "../privacy-center/settings";
import type { TcfSettings } from "../tcf/settings";

export type Translation = { language: string; text: string };
export type Policies = { privacy?: string; terms?: string; cookie?: string };
export type Controller = { name: string; email?: string; address?: string; nationalId?: string; phone?: string };

export const projects = sqliteTable("projects", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  controller: text("controller", { mode: "json" }).$type<Controller>(),
  policies: text("policies", { mode: "json" }).$type<Policies>().notNull(),
  jurisdiction: text("jurisdiction"),
  defaultLanguage: text("default_language").notNull(),
  created: text("created").notNull(),
  updated: text("updated").notNull(),
  /** Grows by one with every write; the resource's ETag (worker/lib/preconditions.ts). */
  revision: integer("revision").notNull().default(1),
  /** Which regime applies where (docs/jurisdictions.md#regimes-and-rules); null: the `recommended` preset. */
  jurisdictionRules: text("jurisdiction_rules", { mode: "json" }).$type<JurisdictionRules>(),
  /** Google Consent Mode v2 settings; null: the defaults (off). */
  consentMode: text("consent_mode", { mode: "json" }).$type<ConsentModeSettings>(),
  /** IAB GPP settings (the MSPA); null: the defaults (not a covered transaction). */
  gpp: text("gpp", { mode: "json" }).$type<GppSettings>(),
  /** The privacy center's channels, SMS countries, retention and theme; null: the defaults (no channel on). */
  privacyCenter: text("privacy_center", { mode: "json" }).$type<PrivacyCenterSettings>(),
  /** Whether the page-side blocker holds back what the blocking list names; null: it does not. */
  blocking: text("blocking", { mode: "json" }).$type<BlockingSettings>(),
  /** IAB TCF settings (docs/tcf.md#a-projects-settings); null: the defaults (off). */
  tcf: text("tcf", { mode: "json" }).$type<TcfSettings>(),
  /** Whether the banner's interactions are counted (docs/analytics.md#turning-counting-off); null: the defaults (on). */
  analytics: text("analytics", { mode: "json" }).$type<AnalyticsSettings>(),
  /**
   * Grows with every change to what the consent widget shows (project metadata, rules, Consent Mode settings,
   * purposes, data groups, parties): bumped by D1 triggers (drizzle/*_configuration_version_triggers.sql), so no
   * write path can forget it. The edge cache of the configuration is keyed by it.
   */
  configVersion: integer("config_version").notNull().default(0),
  /** How often the cron scans the project's registered origins (worker/scans/schedule.ts). */
  scanSchedule: text("scan_schedule").$type<ScanSchedule>().notNull().default("weekly"),
});
