CREATE TABLE "webhook" (
	"id" serial PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"events" jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_delivery" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"webhook_id" integer NOT NULL,
	"event_id" bigint NOT NULL,
	"event_type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"job_queued" boolean DEFAULT false NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_response_code" integer,
	"last_duration_ms" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_webhook_id_webhook_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhook"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_delivery_event_webhook_idx" ON "webhook_delivery" USING btree ("event_id","webhook_id");--> statement-breakpoint
CREATE INDEX "webhook_delivery_webhook_idx" ON "webhook_delivery" USING btree ("webhook_id","id");--> statement-breakpoint
CREATE INDEX "webhook_delivery_unqueued_idx" ON "webhook_delivery" USING btree ("id") WHERE not job_queued and status = 'pending';