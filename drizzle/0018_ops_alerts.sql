CREATE TABLE `ops_alerts` (
	`rule` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`event_id` text NOT NULL,
	`value` real,
	`threshold` real NOT NULL,
	`databases` text NOT NULL,
	`since` text NOT NULL,
	`notified` text
);
