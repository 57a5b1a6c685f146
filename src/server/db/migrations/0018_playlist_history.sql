CREATE TABLE "playlist_histories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"service" text NOT NULL,
	"playlist_id" text NOT NULL,
	"name" text NOT NULL,
	"last_seq" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "playlist_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"history_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"cause" text NOT NULL,
	"origin" text,
	"track_count" integer NOT NULL,
	"keyframe" text,
	"ops" jsonb NOT NULL,
	"new_tracks" text,
	"added" jsonb NOT NULL,
	"removed" jsonb NOT NULL,
	"became_unavailable" jsonb NOT NULL,
	"became_available" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "playlist_histories" ADD CONSTRAINT "playlist_histories_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playlist_versions" ADD CONSTRAINT "playlist_versions_history_id_playlist_histories_id_fk" FOREIGN KEY ("history_id") REFERENCES "public"."playlist_histories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playlist_versions" ADD CONSTRAINT "playlist_versions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "playlist_histories_key" ON "playlist_histories" USING btree ("user_id","service","playlist_id");--> statement-breakpoint
CREATE UNIQUE INDEX "playlist_versions_seq" ON "playlist_versions" USING btree ("history_id","seq");--> statement-breakpoint
CREATE INDEX "playlist_versions_user_idx" ON "playlist_versions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "playlist_versions_origin_idx" ON "playlist_versions" USING btree ("user_id","origin");