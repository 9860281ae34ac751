CREATE TABLE `audit_entries` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`organization_id` text NOT NULL,
	`member_id` text,
	`project_id` text,
	`operation_id` text NOT NULL,
	`object` text NOT NULL,
	`entry_hash` text NOT NULL,
	`previous_hash` text,
	`payload` text NOT NULL,
	`created` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `audit_entries_chain_idx` ON `audit_entries` (`organization_id`,`previous_hash`);--> statement-breakpoint
CREATE INDEX `audit_entries_organization_idx` ON `audit_entries` (`organization_id`,`created`);--> statement-breakpoint
CREATE INDEX `audit_entries_member_idx` ON `audit_entries` (`organization_id`,`member_id`,`created`);--> statement-breakpoint
CREATE TABLE `members` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`email` text NOT NULL,
	`name` text,
	`role` text NOT NULL,
	`created` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `members_email_idx` ON `members` (`email`);--> statement-breakpoint
CREATE INDEX `members_organization_idx` ON `members` (`organization_id`);--> statement-breakpoint
CREATE TABLE `organization_projects` (
	`project_id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `organization_projects_organization_idx` ON `organization_projects` (`organization_id`);--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `project_roles` (
	`member_id` text NOT NULL,
	`project_id` text NOT NULL,
	`role` text NOT NULL,
	PRIMARY KEY(`member_id`, `project_id`),
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `sign_in_links` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`member_id` text NOT NULL,
	`expires` text NOT NULL,
	`used` text,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sign_in_links_expires_idx` ON `sign_in_links` (`expires`);--> statement-breakpoint
ALTER TABLE `portal_sessions` ADD `member_id` text REFERENCES members(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `portal_sessions` ADD `credential` text DEFAULT 'admin-token' NOT NULL;--> statement-breakpoint
ALTER TABLE `portal_sessions` ADD `address` text;--> statement-breakpoint
CREATE INDEX `portal_sessions_member_idx` ON `portal_sessions` (`member_id`);