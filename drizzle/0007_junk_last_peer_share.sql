ALTER TABLE `jobs` ADD `implausible` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `upload_tasks` ADD `peer` text;