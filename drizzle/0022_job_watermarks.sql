CREATE TABLE `job_watermarks` (
	`job` text NOT NULL,
	`database` text NOT NULL,
	`watermark` text NOT NULL,
	`updated` text NOT NULL,
	PRIMARY KEY(`job`, `database`)
);
