CREATE TABLE "nudge_players" (
	"player_id" text PRIMARY KEY NOT NULL,
	"hours" integer NOT NULL,
	"since" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "nudges" (
	"player_id" text NOT NULL,
	"refresh_at" bigint NOT NULL,
	"kind" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "nudges_player_id_refresh_at_pk" PRIMARY KEY("player_id","refresh_at")
);
--> statement-breakpoint
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