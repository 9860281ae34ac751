CREATE TABLE `request_purposes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`identity_id` text NOT NULL,
	`purpose_id` text NOT NULL,
	`request_id` text NOT NULL,
	`request_type` text NOT NULL,
	`counts` integer NOT NULL,
	`status` text NOT NULL,
	`version` text NOT NULL,
	`requested` text NOT NULL,
	`requested_at` integer NOT NULL,
	`data_groups` text NOT NULL,
	`processors` text NOT NULL,
	`recipients` text NOT NULL,
	FOREIGN KEY (`request_id`) REFERENCES `requests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `request_purposes_latest_idx` ON `request_purposes` (`project_id`,`identity_id`,`purpose_id`,`counts`,`requested_at`,`seq`);--> statement-breakpoint
CREATE INDEX `request_purposes_request_idx` ON `request_purposes` (`request_id`);--> statement-breakpoint
DROP INDEX `purposes_reference_idx`;--> statement-breakpoint
ALTER TABLE `purposes` ADD `deleted` text;--> statement-breakpoint
CREATE UNIQUE INDEX `purposes_live_reference_idx` ON `purposes` (`project_id`,`reference_id`) WHERE "purposes"."deleted" IS NULL;--> statement-breakpoint
ALTER TABLE `permission_states` ADD `change_id` text;--> statement-breakpoint
CREATE INDEX `requests_identity_status_idx` ON `requests` (`project_id`,`family`,`identity_id`,`status`,`id`);