DROP INDEX `requests_identity_status_idx`;--> statement-breakpoint
DROP INDEX `requests_subject_idx`;--> statement-breakpoint
DROP INDEX `requests_identity_idx`;--> statement-breakpoint
CREATE INDEX `requests_identity_idx` ON `requests` (`identity_id`,`project_id`,`family`,`id`);