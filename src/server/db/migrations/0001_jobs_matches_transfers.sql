CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid,
	"status" text DEFAULT 'queued' NOT NULL,
	"payload" jsonb NOT NULL,
	"state" jsonb,
	"progress" jsonb,
	"result" jsonb,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"dedupe_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "match_cache" (
	"service" text NOT NULL,
	"region" text NOT NULL,
	"lookup_key" text NOT NULL,
	"value" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "match_cache_service_region_lookup_key_pk" PRIMARY KEY("service","region","lookup_key")
);
--> statement-breakpoint
CREATE TABLE "match_rows" (
	"match_set_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"source" jsonb NOT NULL,
	"candidates" jsonb NOT NULL,
	"chosen_id" text,
	"confidence" integer NOT NULL,
	"status" text NOT NULL,
	"reasons" jsonb NOT NULL,
	"decided_by" text DEFAULT 'engine' NOT NULL,
	CONSTRAINT "match_rows_match_set_id_position_pk" PRIMARY KEY("match_set_id","position")
);
--> statement-breakpoint
CREATE TABLE "match_sets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"source_service" text NOT NULL,
	"destination_service" text NOT NULL,
	"source_playlist_id" text NOT NULL,
	"source_playlist_name" text NOT NULL,
	"status" text DEFAULT 'matching' NOT NULL,
	"job_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"match_set_id" uuid,
	"source_service" text NOT NULL,
	"destination_service" text NOT NULL,
	"source_playlist_id" text NOT NULL,
	"name" text NOT NULL,
	"include_unmatched" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"destination_playlist_id" text,
	"destination_url" text,
	"total_tracks" integer DEFAULT 0 NOT NULL,
	"matched_tracks" integer DEFAULT 0 NOT NULL,
	"unmatched_tracks" integer DEFAULT 0 NOT NULL,
	"added_tracks" integer DEFAULT 0 NOT NULL,
	"overall_confidence" integer DEFAULT 0 NOT NULL,
	"error" text,
	"job_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_rows" ADD CONSTRAINT "match_rows_match_set_id_match_sets_id_fk" FOREIGN KEY ("match_set_id") REFERENCES "public"."match_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_sets" ADD CONSTRAINT "match_sets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_match_set_id_match_sets_id_fk" FOREIGN KEY ("match_set_id") REFERENCES "public"."match_sets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_claim_idx" ON "jobs" USING btree ("status","run_after");--> statement-breakpoint
CREATE INDEX "jobs_user_idx" ON "jobs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_dedupe_key" ON "jobs" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "match_sets_user_idx" ON "match_sets" USING btree ("user_id","source_playlist_id");--> statement-breakpoint
CREATE INDEX "transfers_user_idx" ON "transfers" USING btree ("user_id","created_at");