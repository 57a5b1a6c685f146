CREATE TABLE "rate_budget_slots" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"service" text NOT NULL,
	"app" text NOT NULL,
	"counts_at" timestamp with time zone NOT NULL,
	"calls" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_budgets" (
	"service" text NOT NULL,
	"app" text NOT NULL,
	"budget" integer,
	"learned_at" timestamp with time zone,
	CONSTRAINT "rate_budgets_service_app_pk" PRIMARY KEY("service","app")
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "rate_budget_slots_window_idx" ON "rate_budget_slots" USING btree ("service","app","counts_at");