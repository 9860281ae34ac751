CREATE TABLE `email_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`to` text NOT NULL,
	`subject` text NOT NULL,
	`text` text,
	`status` text NOT NULL,
	`error` text,
	`created` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `email_outbox_to_idx` ON `email_outbox` (`project_id`,`to`,`created`);--> statement-breakpoint
CREATE TABLE `privacy_center_settings` (
	`project_id` text PRIMARY KEY NOT NULL,
	`channels` text NOT NULL,
	`retention_days` integer NOT NULL,
	`theme` text NOT NULL,
	`updated` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `verification_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`channel` text NOT NULL,
	`address_hash` text NOT NULL,
	`salt` text NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires` text NOT NULL,
	`spent` text,
	`created` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `verification_codes_address_idx` ON `verification_codes` (`project_id`,`address_hash`,`created`);--> statement-breakpoint
CREATE INDEX `verification_codes_expires_idx` ON `verification_codes` (`expires`);--> statement-breakpoint
CREATE TABLE `verifications` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`channel` text NOT NULL,
	`identity_id` text,
	`token_hash` text NOT NULL,
	`verified_at` text NOT NULL,
	`expires` text NOT NULL,
	`purge_after` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `verifications_token_hash_unique` ON `verifications` (`token_hash`);--> statement-breakpoint
CREATE INDEX `verifications_project_idx` ON `verifications` (`project_id`,`verified_at`);--> statement-breakpoint
CREATE INDEX `verifications_purge_idx` ON `verifications` (`purge_after`);