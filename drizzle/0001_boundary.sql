CREATE TABLE `upload_task_chunks` (
	`task_id` integer NOT NULL,
	`chunk_index` integer NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`body` blob NOT NULL,
	PRIMARY KEY(`task_id`, `chunk_index`),
	FOREIGN KEY (`task_id`) REFERENCES `upload_tasks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `upload_tasks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`upload_id` text NOT NULL,
	`total_chunks` integer NOT NULL,
	`player_id` text,
	`bytes` integer DEFAULT 0 NOT NULL,
	`chunk_hashes` text,
	`save_id` integer,
	`completed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`save_id`) REFERENCES `saves`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `upload_tasks_upload_idx` ON `upload_tasks` (`upload_id`);--> statement-breakpoint
CREATE INDEX `upload_tasks_open_idx` ON `upload_tasks` (`completed_at`,`created_at`);--> statement-breakpoint
INSERT INTO `upload_tasks` (`upload_id`, `total_chunks`, `player_id`, `bytes`, `save_id`, `completed_at`, `created_at`, `updated_at`) SELECT `id`, `total_chunks`, `player_id`, COALESCE((SELECT sum(`size`) FROM `upload_chunks` c WHERE c.`upload_id` = u.`id`), 0), `save_id`, `completed_at`, `created_at`, `updated_at` FROM `uploads` u;--> statement-breakpoint
INSERT INTO `upload_task_chunks` (`task_id`, `chunk_index`, `size`, `sha256`, `body`) SELECT t.`id`, c.`chunk_index`, c.`size`, '', c.`body` FROM `upload_chunks` c JOIN `upload_tasks` t ON t.`upload_id` = c.`upload_id`;--> statement-breakpoint
DROP TABLE `upload_chunks`;--> statement-breakpoint
DROP TABLE `uploads`;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_saves` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sha256` text NOT NULL,
	`player_id` text NOT NULL,
	`source` text NOT NULL,
	`encrypted` blob,
	`size` integer NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_saves`("id", "sha256", "player_id", "source", "encrypted", "size", "received_at") SELECT "id", "sha256", "player_id", "source", "encrypted", "size", "received_at" FROM `saves`;--> statement-breakpoint
DROP TABLE `saves`;--> statement-breakpoint
ALTER TABLE `__new_saves` RENAME TO `saves`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `saves_sha256_unique` ON `saves` (`sha256`);--> statement-breakpoint
CREATE INDEX `saves_player_idx` ON `saves` (`player_id`,`received_at`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `rerun` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `jobs_state_updated_idx` ON `jobs` (`state`,`updated_at`);--> statement-breakpoint
ALTER TABLE `report_candidates` ADD `undecodable` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `reports_received_idx` ON `reports` (`received_at`);