CREATE TABLE "auth_session_revocation" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"session_id" bigint NOT NULL,
	"revoked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_signing_key" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_signing_key_single_row" CHECK ("auth_signing_key"."id" = 1)
);
--> statement-breakpoint
CREATE INDEX "auth_session_revocation_revoked_at_idx" ON "auth_session_revocation" USING btree ("revoked_at");