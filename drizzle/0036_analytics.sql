CREATE TABLE `analytics_counts` (
	`project_id` text NOT NULL,
	`day` text NOT NULL,
	`event` text NOT NULL,
	`purpose_id` text NOT NULL,
	`regime` text NOT NULL,
	`language` text NOT NULL,
	`device` text NOT NULL,
	`variant` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`project_id`, `day`, `event`, `purpose_id`, `regime`, `language`, `device`, `variant`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `analytics_pages` (
	`project_id` text NOT NULL,
	`day` text NOT NULL,
	`event` text NOT NULL,
	`path` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`project_id`, `day`, `event`, `path`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `banner_experiments` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`name` text NOT NULL,
	`status` text NOT NULL,
	`variants` text NOT NULL,
	`created` text NOT NULL,
	`started` text,
	`stopped` text,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `banner_experiments_running_idx` ON `banner_experiments` (`project_id`) WHERE "banner_experiments"."status" = 'running';
