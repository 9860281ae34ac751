ALTER TABLE `projects` ADD `jurisdiction_rules` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `consent_mode` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `config_version` integer DEFAULT 0 NOT NULL;