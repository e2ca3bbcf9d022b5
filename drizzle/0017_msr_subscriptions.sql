CREATE TABLE `msr_subscriptions` (
	`token_name` text NOT NULL,
	`region` text NOT NULL,
	`position` integer NOT NULL,
	`player_id` text NOT NULL,
	`mode` text NOT NULL,
	`peer` text NOT NULL,
	`list_bytes` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`token_name`, `region`, `position`)
);
--> statement-breakpoint
CREATE INDEX `msr_subscriptions_player_idx` ON `msr_subscriptions` (`player_id`);--> statement-breakpoint
CREATE INDEX `msr_subscriptions_updated_idx` ON `msr_subscriptions` (`updated_at`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `subscribed` integer DEFAULT false NOT NULL;