ALTER TABLE `data_webhooks` ADD `payload` text DEFAULT 'empty' NOT NULL;--> statement-breakpoint
ALTER TABLE `data_webhooks` ADD `check_url` text;