CREATE TABLE "watch_matches" (
	"save_id" integer PRIMARY KEY NOT NULL,
	"player_id" text NOT NULL,
	"matches" jsonb NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "watch_rules" (
	"player_id" text NOT NULL,
	"resource" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "watch_rules_player_id_resource_pk" PRIMARY KEY("player_id","resource")
);
--> statement-breakpoint
ALTER TABLE "watch_matches" ADD CONSTRAINT "watch_matches_save_id_saves_id_fk" FOREIGN KEY ("save_id") REFERENCES "public"."saves"("id") ON DELETE cascade ON UPDATE no action;