ALTER TABLE "match_sets" ADD COLUMN "album_match" jsonb;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "also_add_to_playlist" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "library_save" jsonb;