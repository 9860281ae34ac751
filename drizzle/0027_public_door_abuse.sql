CREATE TABLE `alias_collisions` (
	`project_id` text NOT NULL,
	`type` text NOT NULL,
	`normalized` text NOT NULL,
	`identifier` text NOT NULL,
	`identity_id` text NOT NULL,
	`found` text NOT NULL,
	PRIMARY KEY(`project_id`, `type`, `identifier`),
	FOREIGN KEY (`identity_id`) REFERENCES `identities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `alias_collisions_identity_idx` ON `alias_collisions` (`identity_id`);--> statement-breakpoint
CREATE TABLE `daily_counts` (
	`counter` text NOT NULL,
	`key` text NOT NULL,
	`day` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`counter`, `key`, `day`)
);
--> statement-breakpoint
CREATE INDEX `daily_counts_day_idx` ON `daily_counts` (`day`);--> statement-breakpoint
ALTER TABLE `aliases` ADD `normalized` text;--> statement-breakpoint
CREATE UNIQUE INDEX `aliases_match_idx` ON `aliases` (`project_id`,`type`,coalesce(`normalized`, `identifier`));--> statement-breakpoint
ALTER TABLE `verification_codes` ADD `client_hash` text;--> statement-breakpoint
ALTER TABLE `privacy_center_settings` ADD `sms_countries` text;--> statement-breakpoint
-- Stored email and phone aliases brought to their normal form, as worker/identities/normalise.ts computes it
-- (email: ASCII letters lower-cased; phone: "(0)", spaces, dashes, dots and brackets dropped, a leading 00 as +).
-- Two or more that meet in one normal form are listed in alias_collisions and keep matching as written: no merge.
WITH normal AS (
	SELECT project_id, type, identifier, identity_id,
		CASE type
			WHEN 'urn:svc:email' THEN lower(identifier)
			ELSE CASE WHEN p LIKE '00%' THEN '+' || substr(p, 3) ELSE p END
		END AS norm
	FROM (
		SELECT *, replace(replace(replace(replace(replace(replace(identifier, '(0)', ''), ' ', ''), '-', ''), '.', ''), '(', ''), ')', '') AS p
		FROM aliases WHERE type IN ('urn:svc:email', 'urn:svc:phone')
	)
),
met AS (SELECT project_id, type, norm FROM normal GROUP BY project_id, type, norm HAVING count(*) > 1)
INSERT OR IGNORE INTO `alias_collisions` (`project_id`, `type`, `normalized`, `identifier`, `identity_id`, `found`)
SELECT n.project_id, n.type, n.norm, n.identifier, n.identity_id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM normal n JOIN met m ON m.project_id = n.project_id AND m.type = n.type AND m.norm = n.norm;--> statement-breakpoint
UPDATE `aliases` SET `normalized` = (
	SELECT CASE aliases.type
		WHEN 'urn:svc:email' THEN lower(aliases.identifier)
		ELSE CASE WHEN p LIKE '00%' THEN '+' || substr(p, 3) ELSE p END
	END
	FROM (SELECT replace(replace(replace(replace(replace(replace(aliases.identifier, '(0)', ''), ' ', ''), '-', ''), '.', ''), '(', ''), ')', '') AS p)
)
WHERE `type` IN ('urn:svc:email', 'urn:svc:phone')
	AND `normalized` IS NULL
	AND NOT EXISTS (
		SELECT 1 FROM `alias_collisions` k
		WHERE k.project_id = aliases.project_id AND k.type = aliases.type AND k.identifier = aliases.identifier
	);--> statement-breakpoint
-- Where the normal form is the identifier itself, the column stays null (coalesce() in aliases_match_idx).
UPDATE `aliases` SET `normalized` = NULL WHERE `normalized` = `identifier`;