CREATE TABLE `data_webhooks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`url` text NOT NULL,
	`bearer` text,
	`created_at` integer NOT NULL
);
