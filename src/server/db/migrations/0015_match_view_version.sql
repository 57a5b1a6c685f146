ALTER TABLE "match_sets" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Every change of a match set or of its rows bumps the set's version (decision 0032): each process keeps
-- the serialised view of a ready set keyed by id and version, so a read costs one small query, and any
-- writer (a match job, a person's fix, a batch, another process) makes every cached copy stale at once.
CREATE FUNCTION "match_sets_bump_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."version" := OLD."version" + 1;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "match_sets_version" BEFORE UPDATE ON "match_sets"
  FOR EACH ROW EXECUTE FUNCTION "match_sets_bump_version"();
--> statement-breakpoint
CREATE FUNCTION "match_rows_bump_new"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "match_sets" SET "version" = "version" + 1
    WHERE "id" IN (SELECT DISTINCT "match_set_id" FROM "changed_rows");
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "match_rows_inserted" AFTER INSERT ON "match_rows"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "match_rows_bump_new"();
--> statement-breakpoint
CREATE TRIGGER "match_rows_updated" AFTER UPDATE ON "match_rows"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "match_rows_bump_new"();
--> statement-breakpoint
CREATE TRIGGER "match_rows_deleted" AFTER DELETE ON "match_rows"
  REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "match_rows_bump_new"();
