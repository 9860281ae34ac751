CREATE TABLE `delivery_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`delivery_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`started` text NOT NULL,
	`status_code` integer,
	`latency_ms` integer NOT NULL,
	`error` text,
	FOREIGN KEY (`delivery_id`) REFERENCES `deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `delivery_attempts_delivery_idx` ON `delivery_attempts` (`delivery_id`,`attempt`);--> statement-breakpoint
ALTER TABLE `deliveries` ADD `redelivery_of` text;--> statement-breakpoint
ALTER TABLE `deliveries` ADD `queued` text;--> statement-breakpoint
CREATE UNIQUE INDEX `deliveries_fanout_idx` ON `deliveries` (`event_id`,`webhook_id`) WHERE redelivery_of is null;--> statement-breakpoint
CREATE INDEX `deliveries_unqueued_idx` ON `deliveries` (`status`,`queued`);