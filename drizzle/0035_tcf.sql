-- IAB TCF (docs/tcf.md): the hosted lists, every version kept (the GVL, its purpose translations, Google's ATP list),
-- gzip-compressed JSON; the state of each list's refresh; and the project's TCF settings beside its GPP settings.
CREATE TABLE `tcf_lists` (
	`list` text NOT NULL,
	`version` integer NOT NULL,
	`body` blob NOT NULL,
	`fetched` text NOT NULL,
	PRIMARY KEY(`list`, `version`)
);
--> statement-breakpoint
CREATE TABLE `tcf_refreshes` (
	`source` text PRIMARY KEY NOT NULL,
	`checked` text NOT NULL,
	`failing_since` text,
	`error` text
);
--> statement-breakpoint
ALTER TABLE `projects` ADD `tcf` text;
--> statement-breakpoint
CREATE INDEX `tcf_refreshes_failing_idx` ON `tcf_refreshes` (`failing_since`);
--> statement-breakpoint
-- The widget's cached configuration is keyed by config_version (drizzle/0007_configuration_version_triggers.sql): a
-- change of the TCF settings changes what the widget shows, so it bumps it too.
CREATE TRIGGER projects_tcf_config_version AFTER UPDATE OF tcf ON projects
BEGIN
  UPDATE projects SET config_version = config_version + 1 WHERE id = NEW.id;
END;
