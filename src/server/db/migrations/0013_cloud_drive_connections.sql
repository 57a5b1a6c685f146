CREATE TABLE "cloud_drive_connections" (
	"user_id" uuid NOT NULL,
	"drive" text NOT NULL,
	"account_name" text,
	"encrypted_tokens" text NOT NULL,
	"authorized_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cloud_drive_connections_user_id_drive_pk" PRIMARY KEY("user_id","drive")
);
--> statement-breakpoint
ALTER TABLE "cloud_drive_connections" ADD CONSTRAINT "cloud_drive_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;