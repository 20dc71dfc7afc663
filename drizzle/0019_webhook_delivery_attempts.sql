CREATE TABLE "webhook_delivery_attempt" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" bigint NOT NULL,
	"attempt" integer NOT NULL,
	"succeeded" boolean NOT NULL,
	"response_code" integer,
	"duration_ms" integer NOT NULL,
	"error" text,
	"ended_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempt" ADD CONSTRAINT "webhook_delivery_attempt_delivery_id_webhook_delivery_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_delivery"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_delivery_attempt_delivery_idx" ON "webhook_delivery_attempt" USING btree ("delivery_id","id");--> statement-breakpoint
-- Deliveries made before attempts were kept: their latest attempt is the history they have.
INSERT INTO "webhook_delivery_attempt" ("delivery_id", "attempt", "succeeded", "response_code", "duration_ms", "error", "ended_at")
SELECT "id", "attempts", "status" = 'succeeded', "last_response_code", coalesce("last_duration_ms", 0), "last_error", "updated_at"
FROM "webhook_delivery" WHERE "attempts" > 0 AND "status" <> 'sending';
