-- sms_clients without its foreign key to clients: a client lives in its project's database, which need not be DB.
-- Nothing references sms_clients, so the rebuild needs no foreign-key pragma (D1 enforces them throughout).
CREATE TABLE `__new_sms_clients` (
	`client_id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`created` text NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_sms_clients`("client_id", "project_id", "created") SELECT "client_id", "project_id", "created" FROM `sms_clients`;--> statement-breakpoint
DROP TABLE `sms_clients`;--> statement-breakpoint
ALTER TABLE `__new_sms_clients` RENAME TO `sms_clients`;
