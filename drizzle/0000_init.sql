CREATE TABLE `clients` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`secret_hash` text NOT NULL,
	`not_before` integer NOT NULL,
	`allowed_origins` text NOT NULL,
	`created` text NOT NULL,
	`updated` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `clients_project_idx` ON `clients` (`project_id`,`id`);--> statement-breakpoint
CREATE TABLE `data_groups` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`reference_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`created` text NOT NULL,
	`updated` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `data_groups_project_idx` ON `data_groups` (`project_id`,`id`);--> statement-breakpoint
CREATE TABLE `purpose_versions` (
	`purpose_id` text NOT NULL,
	`version` text NOT NULL,
	`content` text NOT NULL,
	`created` text NOT NULL,
	`updated` text NOT NULL,
	PRIMARY KEY(`purpose_id`, `version`),
	FOREIGN KEY (`purpose_id`) REFERENCES `purposes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `purposes` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`reference_id` text NOT NULL,
	`version` text NOT NULL,
	`content` text NOT NULL,
	`created` text NOT NULL,
	`updated` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `purposes_project_idx` ON `purposes` (`project_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `purposes_reference_idx` ON `purposes` (`project_id`,`reference_id`);--> statement-breakpoint
CREATE TABLE `deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`webhook_id` text NOT NULL,
	`event_id` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer NOT NULL,
	`last_status_code` integer,
	`last_latency_ms` integer,
	`last_error` text,
	`next_attempt` text,
	`created` text NOT NULL,
	`updated` text NOT NULL,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deliveries_webhook_idx` ON `deliveries` (`webhook_id`,`id`);--> statement-breakpoint
CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`type` text NOT NULL,
	`data` text NOT NULL,
	`created` text NOT NULL,
	`dispatched` text
);
--> statement-breakpoint
CREATE INDEX `events_pending_idx` ON `events` (`dispatched`,`created`);--> statement-breakpoint
CREATE INDEX `events_project_idx` ON `events` (`project_id`,`id`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`description` text,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_secret_expires` text,
	`created` text NOT NULL,
	`updated` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhooks_project_idx` ON `webhooks` (`project_id`,`id`);--> statement-breakpoint
CREATE TABLE `billing_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`tscid` text NOT NULL,
	`customer_cache_id` text,
	`assets` text NOT NULL,
	`updated` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `provider_users` (
	`username` text PRIMARY KEY NOT NULL,
	`password_hash` text NOT NULL,
	`created` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sms_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`client_id` text NOT NULL,
	`receiver` text NOT NULL,
	`sender` text NOT NULL,
	`text` text NOT NULL,
	`encoding` text NOT NULL,
	`segments` integer NOT NULL,
	`provider` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer NOT NULL,
	`created` text NOT NULL,
	`updated` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sms_messages_status_idx` ON `sms_messages` (`status`,`id`);--> statement-breakpoint
CREATE TABLE `aliases` (
	`project_id` text NOT NULL,
	`type` text NOT NULL,
	`identifier` text NOT NULL,
	`identity_id` text NOT NULL,
	PRIMARY KEY(`project_id`, `type`, `identifier`),
	FOREIGN KEY (`identity_id`) REFERENCES `identities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `aliases_identity_idx` ON `aliases` (`identity_id`);--> statement-breakpoint
CREATE TABLE `identities` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`reference_id` text,
	`created` text NOT NULL,
	`updated` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `identities_project_idx` ON `identities` (`project_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `identities_reference_idx` ON `identities` (`project_id`,`reference_id`);--> statement-breakpoint
CREATE TABLE `parties` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`reference_id` text NOT NULL,
	`type` text NOT NULL,
	`details` text NOT NULL,
	`created` text NOT NULL,
	`updated` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `parties_project_idx` ON `parties` (`project_id`,`id`);--> statement-breakpoint
CREATE TABLE `projects` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`controller` text,
	`policies` text NOT NULL,
	`jurisdiction` text,
	`default_language` text NOT NULL,
	`created` text NOT NULL,
	`updated` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `permission_states` (
	`project_id` text NOT NULL,
	`identity_id` text NOT NULL,
	`purpose_id` text NOT NULL,
	`status` text NOT NULL,
	`version` text NOT NULL,
	`request_id` text NOT NULL,
	`request_type` text NOT NULL,
	`requested` text NOT NULL,
	`requested_at` integer NOT NULL,
	`data_groups` text NOT NULL,
	`processors` text NOT NULL,
	`recipients` text NOT NULL,
	`updated` text NOT NULL,
	PRIMARY KEY(`project_id`, `identity_id`, `purpose_id`),
	FOREIGN KEY (`identity_id`) REFERENCES `identities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `requests` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`family` text NOT NULL,
	`identity_id` text NOT NULL,
	`status` text NOT NULL,
	`requested` text NOT NULL,
	`requested_at` integer NOT NULL,
	`meta` text,
	`request` text,
	`created` text NOT NULL,
	`updated` text NOT NULL,
	FOREIGN KEY (`identity_id`) REFERENCES `identities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `requests_family_idx` ON `requests` (`project_id`,`family`,`id`);--> statement-breakpoint
CREATE INDEX `requests_identity_idx` ON `requests` (`project_id`,`family`,`identity_id`,`id`);--> statement-breakpoint
CREATE INDEX `requests_status_idx` ON `requests` (`project_id`,`family`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `requests_updated_idx` ON `requests` (`project_id`,`family`,`updated`,`id`);--> statement-breakpoint
CREATE INDEX `requests_subject_idx` ON `requests` (`identity_id`,`requested_at`);