-- Hand-written: a project's feature settings are one JSON column of `projects` each (docs/architecture.md#a-projects-settings),
-- as Consent Mode's, GPP's and the jurisdiction rules' are. The privacy center's settings and the blocking switch
-- move there from their own one-row-per-project tables; a project without a row keeps the defaults (null).
ALTER TABLE `projects` ADD `privacy_center` text;
--> statement-breakpoint
ALTER TABLE `projects` ADD `blocking` text;
--> statement-breakpoint
UPDATE `projects` SET `privacy_center` = (
  SELECT json_object('channels', json(s.`channels`), 'smsCountries', json(s.`sms_countries`), 'retentionDays', s.`retention_days`, 'theme', json(s.`theme`))
  FROM `privacy_center_settings` s WHERE s.`project_id` = `projects`.`id`
);
--> statement-breakpoint
UPDATE `projects` SET `blocking` = (
  SELECT json_object('enabled', json(CASE WHEN b.`enabled` THEN 'true' ELSE 'false' END))
  FROM `blocking_lists` b WHERE b.`project_id` = `projects`.`id`
);
--> statement-breakpoint
DROP TABLE `privacy_center_settings`;
--> statement-breakpoint
DROP TABLE `blocking_lists`;
