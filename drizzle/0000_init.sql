CREATE TABLE `archives` (
	`save_id` integer PRIMARY KEY NOT NULL,
	`player_id` text NOT NULL,
	`rel_path` text NOT NULL,
	`token` text NOT NULL,
	`files` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`save_id`) REFERENCES `saves`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `archives_token_unique` ON `archives` (`token`);--> statement-breakpoint
CREATE UNIQUE INDEX `archives_path_unique` ON `archives` (`rel_path`);--> statement-breakpoint
CREATE TABLE `deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`save_id` integer NOT NULL,
	`channel` text NOT NULL,
	`target` text NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`parts_sent` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`sent_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`save_id`) REFERENCES `saves`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deliveries_unique` ON `deliveries` (`save_id`,`channel`,`target`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`save_id` integer,
	`report_id` integer,
	`stage` text NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`run_at` integer NOT NULL,
	`lease_id` text,
	`lease_expires_at` integer,
	`notify` integer DEFAULT true NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`save_id`) REFERENCES `saves`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_save_unique` ON `jobs` (`save_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_report_unique` ON `jobs` (`report_id`);--> statement-breakpoint
CREATE INDEX `jobs_claim_idx` ON `jobs` (`state`,`run_at`);--> statement-breakpoint
CREATE TABLE `report_candidates` (
	`report_id` integer NOT NULL,
	`seq` integer NOT NULL,
	`entry_index` integer NOT NULL,
	`part` text NOT NULL,
	`url` text,
	`body` blob NOT NULL,
	PRIMARY KEY(`report_id`, `seq`),
	FOREIGN KEY (`report_id`) REFERENCES `reports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`received_at` integer NOT NULL,
	`shape` text NOT NULL,
	`entry_count` integer NOT NULL,
	`candidate_count` integer NOT NULL,
	`empty_bodies` integer NOT NULL,
	`meta` text NOT NULL,
	`outcome` text,
	`save_id` integer,
	`processed_at` integer,
	FOREIGN KEY (`save_id`) REFERENCES `saves`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `save_outputs` (
	`save_id` integer NOT NULL,
	`name` text NOT NULL,
	`body` blob NOT NULL,
	PRIMARY KEY(`save_id`, `name`),
	FOREIGN KEY (`save_id`) REFERENCES `saves`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `saves` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sha256` text NOT NULL,
	`player_id` text NOT NULL,
	`source` text NOT NULL,
	`encrypted` blob NOT NULL,
	`size` integer NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `saves_sha256_unique` ON `saves` (`sha256`);--> statement-breakpoint
CREATE INDEX `saves_player_idx` ON `saves` (`player_id`,`received_at`);--> statement-breakpoint
CREATE TABLE `upload_chunks` (
	`upload_id` text NOT NULL,
	`chunk_index` integer NOT NULL,
	`size` integer NOT NULL,
	`body` blob NOT NULL,
	PRIMARY KEY(`upload_id`, `chunk_index`),
	FOREIGN KEY (`upload_id`) REFERENCES `uploads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `uploads` (
	`id` text PRIMARY KEY NOT NULL,
	`total_chunks` integer NOT NULL,
	`player_id` text,
	`save_id` integer,
	`completed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`save_id`) REFERENCES `saves`(`id`) ON UPDATE no action ON DELETE set null
);
