-- Hand-written backfill for 0005_sms_providers: `sent` is now `accepted` (the provider took the message), and
-- messages still waiting for a hand-off get the default 24 h validity from their creation.
UPDATE `sms_messages` SET `status` = 'accepted' WHERE `status` = 'sent';--> statement-breakpoint
UPDATE `sms_messages` SET `expires` = strftime('%Y-%m-%dT%H:%M:%fZ', `created`, '+24 hours') WHERE `status` IN ('pending', 'retrying');
