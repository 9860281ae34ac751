CREATE TABLE `billing_lookups` (
	`billing_account` text PRIMARY KEY NOT NULL,
	`result` text,
	`until` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `billing_lookups_until_idx` ON `billing_lookups` (`until`);--> statement-breakpoint
CREATE TABLE `address_blocks` (
	`limiter` text NOT NULL,
	`address_hash` text NOT NULL,
	`until` text NOT NULL,
	PRIMARY KEY(`limiter`, `address_hash`)
);
--> statement-breakpoint
CREATE INDEX `address_blocks_until_idx` ON `address_blocks` (`until`);--> statement-breakpoint
CREATE TABLE `portal_sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`csrf_token` text NOT NULL,
	`admin_fingerprint` text NOT NULL,
	`created` text NOT NULL,
	`expires` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `portal_sessions_expires_idx` ON `portal_sessions` (`expires`);