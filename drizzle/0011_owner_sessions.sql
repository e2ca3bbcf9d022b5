CREATE TABLE `login_failures` (
	`peer` text PRIMARY KEY NOT NULL,
	`failures` integer NOT NULL,
	`last_failure` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `login_failures_last_idx` ON `login_failures` (`last_failure`);--> statement-breakpoint
CREATE TABLE `owner_sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `owner_sessions_expiry_idx` ON `owner_sessions` (`expires_at`);