CREATE TABLE `log_entries` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`identity_id` text,
	`request_id` text,
	`receipt_hash` text,
	`entry_hash` text NOT NULL,
	`payload` text,
	`created` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `log_entries_project_idx` ON `log_entries` (`project_id`,`seq`);--> statement-breakpoint
CREATE INDEX `log_entries_identity_idx` ON `log_entries` (`project_id`,`identity_id`,`seq`);--> statement-breakpoint
CREATE INDEX `log_entries_identity_receipts_idx` ON `log_entries` (`project_id`,`identity_id`,`seq`) WHERE "log_entries"."receipt_hash" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `log_entries_receipt_idx` ON `log_entries` (`project_id`,`receipt_hash`) WHERE "log_entries"."receipt_hash" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `log_heads` (
	`project_id` text NOT NULL,
	`tree_size` integer NOT NULL,
	`root_hash` text NOT NULL,
	`head_hash` text NOT NULL,
	`last_seq` integer NOT NULL,
	`frontier` text NOT NULL,
	`signed` text NOT NULL,
	`created` text NOT NULL,
	PRIMARY KEY(`project_id`, `tree_size`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `log_nodes` (
	`project_id` text NOT NULL,
	`level` integer NOT NULL,
	`idx` integer NOT NULL,
	`hash` text NOT NULL,
	PRIMARY KEY(`project_id`, `level`, `idx`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `requests` ADD `receipt` text;