CREATE TABLE "msr_subscriptions" (
	"token_name" text NOT NULL,
	"region" text NOT NULL,
	"position" integer NOT NULL,
	"player_id" text NOT NULL,
	"mode" text NOT NULL,
	"peer" text NOT NULL,
	"list_bytes" integer NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "msr_subscriptions_token_name_region_position_pk" PRIMARY KEY("token_name","region","position")
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "subscribed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "msr_subscriptions_player_idx" ON "msr_subscriptions" USING btree ("player_id");--> statement-breakpoint
CREATE INDEX "msr_subscriptions_updated_idx" ON "msr_subscriptions" USING btree ("updated_at");