ALTER TABLE `jobs` ADD `process_deaths` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `crashes` integer DEFAULT 0 NOT NULL;