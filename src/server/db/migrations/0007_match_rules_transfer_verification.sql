CREATE TABLE "match_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"source_service" text NOT NULL,
	"destination_service" text NOT NULL,
	"source_key" text NOT NULL,
	"source" jsonb NOT NULL,
	"action" text NOT NULL,
	"destination" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "verified_tracks" integer;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "verification_missing" jsonb;--> statement-breakpoint
ALTER TABLE "match_rules" ADD CONSTRAINT "match_rules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "match_rules_key_idx" ON "match_rules" USING btree ("user_id","source_service","destination_service","source_key");