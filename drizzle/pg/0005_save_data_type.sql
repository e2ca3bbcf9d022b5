ALTER TABLE "saves" ADD COLUMN "data_type" text DEFAULT 'mysekai' NOT NULL;--> statement-breakpoint
ALTER TABLE "saves" ADD COLUMN "partial" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Saves drawn before the column existed: their outputs model, or else their archive's digest, says whether they were partial.
UPDATE saves SET partial = true WHERE outputs->>'partial' = 'true' OR id IN (SELECT save_id FROM archives WHERE digest->>'partial' = 'true');
