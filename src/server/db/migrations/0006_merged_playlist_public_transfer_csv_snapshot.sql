ALTER TABLE "merged_playlists" ADD COLUMN "public" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "csv_snapshot" jsonb;