ALTER TABLE `members` ADD `accepted` text;--> statement-breakpoint
UPDATE `members` SET `accepted` = `created`;--> statement-breakpoint
ALTER TABLE `sign_in_links` ADD `kind` text DEFAULT 'sign-in' NOT NULL;--> statement-breakpoint
CREATE TABLE `api_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`member_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`secret_hash` text NOT NULL,
	`scopes` text NOT NULL,
	`created` text NOT NULL,
	`expires` text NOT NULL,
	`revoked` text
);
--> statement-breakpoint
CREATE INDEX `api_tokens_member_idx` ON `api_tokens` (`member_id`);
