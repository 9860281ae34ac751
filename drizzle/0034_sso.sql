CREATE TABLE `sso_configurations` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`issuer` text NOT NULL,
	`client_id` text NOT NULL,
	`client_secret_encrypted` text NOT NULL,
	`default_role` text NOT NULL,
	`updated` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `sso_domains` (
	`domain` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sso_domains_organization_idx` ON `sso_domains` (`organization_id`);--> statement-breakpoint
CREATE TABLE `sso_pending_sign_ins` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`nonce` text NOT NULL,
	`code_verifier` text NOT NULL,
	`browser_hash` text NOT NULL,
	`expires` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sso_pending_sign_ins_expires_idx` ON `sso_pending_sign_ins` (`expires`);
