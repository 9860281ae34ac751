CREATE TABLE `ui_strings` (
	`project_id` text NOT NULL,
	`language` text NOT NULL,
	`strings` text NOT NULL,
	`updated` text NOT NULL,
	PRIMARY KEY(`project_id`, `language`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
