CREATE TABLE `scans` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`origin` text NOT NULL,
	`trigger` text NOT NULL,
	`status` text NOT NULL,
	`problem` text,
	`created` text NOT NULL,
	`started` text,
	`completed` text,
	`report` text,
	`counts` text,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `scans_project_idx` ON `scans` (`project_id`,`id`);--> statement-breakpoint
CREATE INDEX `scans_origin_idx` ON `scans` (`project_id`,`origin`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `scans_pending_idx` ON `scans` (`status`,`id`) WHERE "scans"."status" IN ('queued', 'running');--> statement-breakpoint
ALTER TABLE `projects` ADD `scan_schedule` text DEFAULT 'weekly' NOT NULL;