-- Backups keep only a header (decision 0038): `backup_snapshots` is renamed `backups` (one name per thing,
-- decision 0036), and what each playlist held becomes a version of its history, linked by `backup_playlists`.
-- The versions are recorded by a TypeScript step that runs right after this migration (db/migrate.ts,
-- vault/backup-upgrade.ts); the old `contents` column is dropped by 0021, after that step.
ALTER TABLE "backup_snapshots" RENAME TO "backups";--> statement-breakpoint
ALTER TABLE "backups" RENAME CONSTRAINT "backup_snapshots_pkey" TO "backups_pkey";--> statement-breakpoint
ALTER TABLE "backups" RENAME CONSTRAINT "backup_snapshots_user_id_users_id_fk" TO "backups_user_id_users_id_fk";--> statement-breakpoint
ALTER INDEX "backup_snapshots_user_idx" RENAME TO "backups_user_idx";--> statement-breakpoint
ALTER TABLE "backups" ADD COLUMN "unreadable" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
UPDATE "backups" SET "unreadable" = "contents"->'unreadable' WHERE jsonb_typeof("contents"->'unreadable') = 'array';--> statement-breakpoint
CREATE TABLE "backup_playlists" (
	"backup_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"version_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"skipped_entries" integer NOT NULL,
	CONSTRAINT "backup_playlists_backup_id_position_pk" PRIMARY KEY("backup_id","position")
);
--> statement-breakpoint
ALTER TABLE "backup_playlists" ADD CONSTRAINT "backup_playlists_backup_id_backups_id_fk" FOREIGN KEY ("backup_id") REFERENCES "public"."backups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_playlists" ADD CONSTRAINT "backup_playlists_version_id_playlist_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."playlist_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "backup_playlists_version_idx" ON "backup_playlists" USING btree ("version_id");
