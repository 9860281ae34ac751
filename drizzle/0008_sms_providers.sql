CREATE TABLE `sms_route_health` (
	`route` text PRIMARY KEY NOT NULL,
	`last_success` text,
	`last_error` text,
	`last_error_at` text,
	`consecutive_failures` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sms_trail` (
	`message_id` text NOT NULL,
	`seq` integer NOT NULL,
	`at` text NOT NULL,
	`status` text NOT NULL,
	`route` text NOT NULL,
	`error_code` text,
	`detail` text,
	PRIMARY KEY(`message_id`, `seq`),
	FOREIGN KEY (`message_id`) REFERENCES `sms_messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `sms_messages` ADD `provider_ref` text;--> statement-breakpoint
ALTER TABLE `sms_messages` ADD `error_code` text;--> statement-breakpoint
ALTER TABLE `sms_messages` ADD `expires` text DEFAULT '9999-12-31T23:59:59.999Z' NOT NULL;--> statement-breakpoint
ALTER TABLE `sms_messages` ADD `revision` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sms_messages` ADD `text_purged` text;--> statement-breakpoint
CREATE INDEX `sms_messages_ref_idx` ON `sms_messages` (`provider`,`provider_ref`);--> statement-breakpoint
CREATE INDEX `sms_messages_route_idx` ON `sms_messages` (`provider`,`status`);