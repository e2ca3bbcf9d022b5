CREATE TABLE "msr_subscription_players" (
	"token_name" text NOT NULL,
	"region" text NOT NULL,
	"position" integer NOT NULL,
	"player_id" text NOT NULL,
	"mode" text NOT NULL,
	CONSTRAINT "msr_subscription_players_token_name_region_position_pk" PRIMARY KEY("token_name","region","position")
);
--> statement-breakpoint
CREATE TABLE "msr_subscriptions" (
	"token_name" text NOT NULL,
	"region" text NOT NULL,
	"peer" text NOT NULL,
	"list_bytes" integer NOT NULL,
	"list_sha256" text NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "msr_subscriptions_token_name_region_pk" PRIMARY KEY("token_name","region")
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "subscribed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "msr_subscription_players" ADD CONSTRAINT "msr_subscription_players_list_fk" FOREIGN KEY ("token_name","region") REFERENCES "public"."msr_subscriptions"("token_name","region") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "msr_subscription_players_player_idx" ON "msr_subscription_players" USING btree ("player_id");--> statement-breakpoint
CREATE INDEX "msr_subscriptions_updated_idx" ON "msr_subscriptions" USING btree ("updated_at");