CREATE TABLE `scan_essentials` (
	`project_id` text NOT NULL,
	`name` text NOT NULL,
	`reason` text NOT NULL,
	`created` text NOT NULL,
	PRIMARY KEY(`project_id`, `name`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
