CREATE TABLE `players` (
	`player_id` text PRIMARY KEY NOT NULL,
	`name` text,
	`token` text NOT NULL,
	`token_sha256` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `players_token_sha256_unique` ON `players` (`token_sha256`);--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
