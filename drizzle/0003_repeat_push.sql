ALTER TABLE `jobs` ADD `force_push` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `saves` ADD `drops_fingerprint` text;--> statement-breakpoint
ALTER TABLE `saves` ADD `repeat_of` integer;