ALTER TABLE "sync_runs" ADD COLUMN "rebuild" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "added_to_source" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "removed_from_source" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "conflicts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "writes" jsonb;--> statement-breakpoint
ALTER TABLE "syncs" ADD COLUMN "direction" text DEFAULT 'one-way' NOT NULL;--> statement-breakpoint
ALTER TABLE "syncs" ADD COLUMN "two_way_base" jsonb;