DROP INDEX `events_pending_idx`;--> statement-breakpoint
CREATE INDEX `events_pending_idx` ON `events` (`created`,`id`) WHERE "events"."dispatched" IS NULL;