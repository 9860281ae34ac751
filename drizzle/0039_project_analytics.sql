-- Hand-written: the project's counting switch, one JSON column of `projects` as every feature's settings are
-- (docs/architecture.md#a-projects-settings); null keeps the default, counting on (docs/analytics.md#turning-counting-off).
ALTER TABLE `projects` ADD `analytics` text;
