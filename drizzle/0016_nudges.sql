CREATE TABLE `nudge_players` (
	`player_id` text PRIMARY KEY NOT NULL,
	`hours` integer NOT NULL,
	`since` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `nudges` (
	`player_id` text NOT NULL,
	`refresh_at` integer NOT NULL,
	`kind` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`player_id`, `refresh_at`)
);
