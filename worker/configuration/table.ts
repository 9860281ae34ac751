import type { SensitiveCategory } from "../../shared/gpp/sensitive-categories";
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { ConsentType } from "../consent-mode/settings";
import type { Exemption } from "../jurisdictions/exemptions";
import { projects, type Translation } from "../projects/table";

export const legalGrounds = ["legal_requirement", "contract", "legitimate_interests", "consent"] as const;
export type LegalGround = (typeof legalGrounds)[number];

export const dataGroups = sqliteTable(
  "data_groups",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    referenceId: text("reference_id").notNull(),
    name: text("name").notNull(),
    description: text("description", { mode: "json" }).$type<Translation[]>().notNull(),
    created: text("created").notNull(),
    updated: text("updated").notNull(),
    /** Grows by one with every write; the resource's ETag (worker/lib/preconditions.ts). */
    revision: integer("revision").notNull().default(1),
  },
  (t) => [index("data_groups_project_idx").on(t.projectId, t.id), uniqueIndex("data_groups_reference_idx").on(t.projectId, t.referenceId)],
);

/** What a purpose says at one version: kept for every version so a permission can show what was agreed to. */
export type PurposeContent = {
  referenceId: string;
  name: string;
  description: Translation[];
  legalGround: LegalGround;
  dataGroups: string[];
  processors: string[];
  recipients: string[];
  controllers: string[];
  /** Google Consent Mode v2 types the purpose stands for; absent on purposes stored before the field existed. */
  consentMode?: ConsentType[];
  /** Why it needs no consent, where that holds; absent on purposes stored before the field existed. */
  exemption?: Exemption | null;
  /** Uses sensitive personal information (CCPA); absent on purposes stored before the field existed. */
  sensitive?: boolean;
  /** The categories of sensitive data it processes; absent on purposes stored before the field existed. */
  sensitiveCategories?: SensitiveCategory[];
};

export const purposes = sqliteTable(
  "purposes",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    referenceId: text("reference_id").notNull(),
    /** Current version ("1", "2", …). */
    version: text("version").notNull(),
    content: text("content", { mode: "json" }).$type<PurposeContent>().notNull(),
    created: text("created").notNull(),
    updated: text("updated").notNull(),
    /** Grows by one with every write; the resource's ETag (worker/lib/preconditions.ts). */
    revision: integer("revision").notNull().default(1),
    /**
     * Set when the purpose is deleted. The row stays (and its versions with it) because permissions given to it
     * must keep showing what was agreed to; every read of the configuration skips deleted purposes.
     */
    deleted: text("deleted"),
  },
  (t) => [
    index("purposes_project_idx").on(t.projectId, t.id),
    uniqueIndex("purposes_live_reference_idx").on(t.projectId, t.referenceId).where(sql`${t.deleted} IS NULL`),
  ],
);

export const purposeVersions = sqliteTable(
  "purpose_versions",
  {
    purposeId: text("purpose_id")
      .notNull()
      .references(() => purposes.id, { onDelete: "cascade" }),
    version: text("version").notNull(),
    content: text("content", { mode: "json" }).$type<PurposeContent>().notNull(),
    created: text("created").notNull(),
    updated: text("updated").notNull(),
  },
  (t) => [primaryKey({ columns: [t.purposeId, t.version] })],
);
