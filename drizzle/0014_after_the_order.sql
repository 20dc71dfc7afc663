CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text NOT NULL,
	"changes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_return_line" (
	"return_id" integer NOT NULL,
	"order_line_id" integer NOT NULL,
	"qty" integer NOT NULL,
	"amount" integer NOT NULL,
	"points" integer NOT NULL,
	CONSTRAINT "order_return_line_pkey" PRIMARY KEY("return_id","order_line_id"),
	CONSTRAINT "order_return_line_qty_check" CHECK ("order_return_line"."qty" > 0)
);
--> statement-breakpoint
CREATE TABLE "order_return" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"points" integer NOT NULL,
	"restock" boolean NOT NULL,
	"reason" text,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_return_amount_check" CHECK ("order_return"."amount" >= 0 and "order_return"."points" >= 0)
);
--> statement-breakpoint
CREATE TABLE "order_status_change" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"from_status" text NOT NULL,
	"to_status" text NOT NULL,
	"reason" text,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipment" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"carrier" text NOT NULL,
	"tracking_number" text NOT NULL,
	"tracking_url" text,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sales_order" ADD COLUMN "payment_status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "sales_order" ADD COLUMN "paid_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sales_order" ADD COLUMN "refunded_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sales_order" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_return_line" ADD CONSTRAINT "order_return_line_return_id_order_return_id_fk" FOREIGN KEY ("return_id") REFERENCES "public"."order_return"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_return" ADD CONSTRAINT "order_return_order_id_sales_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."sales_order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_status_change" ADD CONSTRAINT "order_status_change_order_id_sales_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."sales_order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment" ADD CONSTRAINT "shipment_order_id_sales_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."sales_order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity","entity_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor","id");--> statement-breakpoint
CREATE INDEX "order_return_line_line_idx" ON "order_return_line" USING btree ("order_line_id");--> statement-breakpoint
CREATE INDEX "order_return_order_idx" ON "order_return" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "order_return_created_idx" ON "order_return" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "order_status_change_order_idx" ON "order_status_change" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "shipment_order_idx" ON "shipment" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "sales_order_created_idx" ON "sales_order" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sales_order_status_created_idx" ON "sales_order" USING btree ("status","created_at");--> statement-breakpoint
ALTER TABLE "sales_order" ADD CONSTRAINT "sales_order_payment_check" CHECK ("sales_order"."payment_status" in ('pending', 'paid', 'partially_refunded', 'refunded') and "sales_order"."refunded_amount" between 0 and "sales_order"."paid_amount");