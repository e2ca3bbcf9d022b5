ALTER TABLE `saves` ADD `data_type` text DEFAULT 'mysekai' NOT NULL;--> statement-breakpoint
ALTER TABLE `saves` ADD `partial` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- Saves drawn before the column existed: their outputs model, or else their archive's digest, says whether they were partial.
UPDATE saves SET partial = 1 WHERE json_extract(outputs, '$.partial') = 1 OR id IN (SELECT save_id FROM archives WHERE json_extract(digest, '$.partial') = 1);
