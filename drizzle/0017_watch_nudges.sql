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
--> statement-breakpoint
CREATE TABLE `watch_matches` (
	`save_id` integer PRIMARY KEY NOT NULL,
	`player_id` text NOT NULL,
	`matches` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`save_id`) REFERENCES `saves`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `watch_rules` (
	`player_id` text NOT NULL,
	`resource` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`player_id`, `resource`)
);
