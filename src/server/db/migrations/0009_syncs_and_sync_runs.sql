CREATE TABLE "sync_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sync_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"dry_run" boolean NOT NULL,
	"trigger" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"removals_confirmed" boolean DEFAULT false NOT NULL,
	"added" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"removed" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"listed_removals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"not_added" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"verified_tracks" integer,
	"verification_missing" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"job_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "syncs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"source_service" text NOT NULL,
	"source_playlist_id" text NOT NULL,
	"source_playlist_name" text,
	"destination_service" text NOT NULL,
	"destination_playlist_id" text,
	"destination_url" text,
	"schedule" text NOT NULL,
	"removals" boolean DEFAULT false NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"next_run_at" timestamp with time zone,
	"synced" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sync_runs" ADD CONSTRAINT "sync_runs_sync_id_syncs_id_fk" FOREIGN KEY ("sync_id") REFERENCES "public"."syncs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD CONSTRAINT "sync_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "syncs" ADD CONSTRAINT "syncs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sync_runs_sync_idx" ON "sync_runs" USING btree ("sync_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sync_runs_one_active" ON "sync_runs" USING btree ("sync_id") WHERE "sync_runs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "syncs_user_idx" ON "syncs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "syncs_due_idx" ON "syncs" USING btree ("next_run_at");