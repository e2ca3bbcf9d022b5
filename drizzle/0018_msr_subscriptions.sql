CREATE TABLE `msr_subscription_players` (
	`token_name` text NOT NULL,
	`region` text NOT NULL,
	`position` integer NOT NULL,
	`player_id` text NOT NULL,
	`mode` text NOT NULL,
	PRIMARY KEY(`token_name`, `region`, `position`),
	FOREIGN KEY (`token_name`,`region`) REFERENCES `msr_subscriptions`(`token_name`,`region`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `msr_subscription_players_player_idx` ON `msr_subscription_players` (`player_id`);--> statement-breakpoint
CREATE TABLE `msr_subscriptions` (
	`token_name` text NOT NULL,
	`region` text NOT NULL,
	`peer` text NOT NULL,
	`list_bytes` integer NOT NULL,
	`list_sha256` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`token_name`, `region`)
);
--> statement-breakpoint
CREATE INDEX `msr_subscriptions_updated_idx` ON `msr_subscriptions` (`updated_at`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `subscribed` integer DEFAULT false NOT NULL;