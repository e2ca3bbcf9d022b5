CREATE TABLE "archive_folders" (
	"rel_path" text PRIMARY KEY NOT NULL,
	"save_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "archive_folders" ADD CONSTRAINT "archive_folders_save_id_saves_id_fk" FOREIGN KEY ("save_id") REFERENCES "public"."saves"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "archive_folders_save_idx" ON "archive_folders" USING btree ("save_id");--> statement-breakpoint
-- Folders archived before the claims existed are held by their saves, so a redraw of a second save of that second never takes the first one's.
INSERT INTO archive_folders (rel_path, save_id) SELECT rel_path, save_id FROM archives;
