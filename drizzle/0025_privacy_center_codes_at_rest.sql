PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_email_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`to` text NOT NULL,
	`subject` text,
	`text` text,
	`status` text NOT NULL,
	`error` text,
	`created` text NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_email_outbox`("id", "project_id", "to", "subject", "text", "status", "error", "created") SELECT "id", "project_id", "to", "subject", "text", "status", "error", "created" FROM `email_outbox`;--> statement-breakpoint
DROP TABLE `email_outbox`;--> statement-breakpoint
ALTER TABLE `__new_email_outbox` RENAME TO `email_outbox`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `email_outbox_to_idx` ON `email_outbox` (`project_id`,`to`,`created`);--> statement-breakpoint
CREATE INDEX `email_outbox_status_idx` ON `email_outbox` (`status`,`created`);--> statement-breakpoint
ALTER TABLE `sms_messages` ADD `secret` integer DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE `email_outbox` SET `subject` = NULL WHERE `status` <> 'captured';--> statement-breakpoint
UPDATE `sms_messages` SET `secret` = 1 WHERE `client_id` = 'privacy-center';--> statement-breakpoint
UPDATE `sms_messages` SET `text` = '', `text_purged` = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE `client_id` = 'privacy-center' AND `status` NOT IN ('pending', 'retrying', 'outbox_only') AND `text_purged` IS NULL;
