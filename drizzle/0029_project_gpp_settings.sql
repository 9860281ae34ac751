ALTER TABLE `projects` ADD `gpp` text;
