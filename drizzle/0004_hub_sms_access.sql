CREATE TABLE `sms_clients` (
	`client_id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`created` text NOT NULL,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `sms_sender_blacklist` (
	`sender` text PRIMARY KEY NOT NULL,
	`created` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `sms_messages` ADD `next_attempt` text;--> statement-breakpoint
ALTER TABLE `sms_messages` ADD `last_error` text;--> statement-breakpoint
CREATE INDEX `sms_messages_due_idx` ON `sms_messages` (`next_attempt`);--> statement-breakpoint
CREATE INDEX `sms_messages_project_idx` ON `sms_messages` (`project_id`,`id`);