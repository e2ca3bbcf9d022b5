CREATE TABLE `archive_folders` (
	`rel_path` text PRIMARY KEY NOT NULL,
	`save_id` integer NOT NULL,
	FOREIGN KEY (`save_id`) REFERENCES `saves`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `archive_folders_save_idx` ON `archive_folders` (`save_id`);--> statement-breakpoint
-- Folders archived before the claims existed are held by their saves, so a redraw of a second save of that second never takes the first one's.
INSERT INTO archive_folders (rel_path, save_id) SELECT rel_path, save_id FROM archives;
