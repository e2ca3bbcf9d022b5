CREATE UNLOGGED TABLE "api_rate_windows" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" bigint NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "api_rate_windows_start_idx" ON "api_rate_windows" USING btree ("window_start");