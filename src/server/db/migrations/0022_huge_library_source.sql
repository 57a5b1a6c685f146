CREATE TABLE "match_source_entries" (
	"match_set_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"entry" jsonb NOT NULL,
	CONSTRAINT "match_source_entries_match_set_id_position_pk" PRIMARY KEY("match_set_id","position")
);
--> statement-breakpoint
ALTER TABLE "match_sets" ADD COLUMN "source_length" integer;--> statement-breakpoint
ALTER TABLE "match_source_entries" ADD CONSTRAINT "match_source_entries_match_set_id_match_sets_id_fk" FOREIGN KEY ("match_set_id") REFERENCES "public"."match_sets"("id") ON DELETE cascade ON UPDATE no action;