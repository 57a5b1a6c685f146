-- One name per thing (decision 0035): the sniper-link tables are renamed, not recreated, so every link,
-- view and signup is kept. Indexes, foreign keys, primary keys and sequences follow the tables' names.
ALTER TABLE "share_links" RENAME TO "links";--> statement-breakpoint
ALTER TABLE "share_link_views" RENAME TO "link_views";--> statement-breakpoint
ALTER TABLE "share_link_signups" RENAME TO "link_signups";--> statement-breakpoint
ALTER TABLE "links" RENAME CONSTRAINT "share_links_pkey" TO "links_pkey";--> statement-breakpoint
ALTER TABLE "link_views" RENAME CONSTRAINT "share_link_views_pkey" TO "link_views_pkey";--> statement-breakpoint
ALTER TABLE "link_signups" RENAME CONSTRAINT "share_link_signups_pkey" TO "link_signups_pkey";--> statement-breakpoint
ALTER TABLE "links" RENAME CONSTRAINT "share_links_user_id_users_id_fk" TO "links_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "link_views" RENAME CONSTRAINT "share_link_views_link_id_share_links_id_fk" TO "link_views_link_id_links_id_fk";--> statement-breakpoint
ALTER TABLE "link_signups" RENAME CONSTRAINT "share_link_signups_link_id_share_links_id_fk" TO "link_signups_link_id_links_id_fk";--> statement-breakpoint
ALTER INDEX "share_links_slug_key" RENAME TO "links_slug_key";--> statement-breakpoint
ALTER INDEX "share_links_user_idx" RENAME TO "links_user_idx";--> statement-breakpoint
ALTER INDEX "share_link_views_link_idx" RENAME TO "link_views_link_idx";--> statement-breakpoint
ALTER INDEX "share_link_signups_email_key" RENAME TO "link_signups_email_key";--> statement-breakpoint
ALTER SEQUENCE "share_link_views_id_seq" RENAME TO "link_views_id_seq";--> statement-breakpoint
ALTER SEQUENCE "share_link_signups_id_seq" RENAME TO "link_signups_id_seq";--> statement-breakpoint
-- Which engine wrote a merge's insight, so the page says "AI Insight" only when a model did.
ALTER TABLE "merged_playlists" ADD COLUMN "insight_written_by" text;
