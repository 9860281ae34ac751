CREATE TABLE `blocking_entries` (
	`project_id` text NOT NULL,
	`position` integer NOT NULL,
	`host` text NOT NULL,
	`purpose` text NOT NULL,
	`source` text NOT NULL,
	`vendor` text,
	PRIMARY KEY(`project_id`, `position`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `blocking_lists` (
	`project_id` text PRIMARY KEY NOT NULL,
	`enabled` integer NOT NULL,
	`updated` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
