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
