CREATE INDEX `deliveries_event_idx` ON `deliveries` (`event_id`);--> statement-breakpoint
CREATE INDEX `permission_states_identity_idx` ON `permission_states` (`identity_id`);