ALTER TABLE "data_webhooks" ADD COLUMN "payload" text DEFAULT 'empty' NOT NULL;--> statement-breakpoint
ALTER TABLE "data_webhooks" ADD COLUMN "check_url" text;