CREATE TABLE "mail_message" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"template" text NOT NULL,
	"locale" text NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"job_queued" boolean DEFAULT false NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "mail_message_unqueued_idx" ON "mail_message" USING btree ("id") WHERE not job_queued and status = 'pending';