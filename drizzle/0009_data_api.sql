CREATE TABLE `api_tokens` (
	`name` text PRIMARY KEY NOT NULL,
	`token_sha256` text NOT NULL,
	`players` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_tokens_token_sha256_unique` ON `api_tokens` (`token_sha256`);--> statement-breakpoint
CREATE TABLE `public_players` (
	`player_id` text PRIMARY KEY NOT NULL,
	`since` integer NOT NULL
);
