CREATE TABLE "cart_line" (
	"cart_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"qty" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cart_line_pkey" PRIMARY KEY("cart_id","product_id"),
	CONSTRAINT "cart_line_qty_check" CHECK ("cart_line"."qty" between 1 and 999)
);
--> statement-breakpoint
CREATE TABLE "cart" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text,
	"customer_id" integer,
	"coupon_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cart_token_hash_key" UNIQUE("token_hash"),
	CONSTRAINT "cart_customer_id_key" UNIQUE("customer_id"),
	CONSTRAINT "cart_owner_check" CHECK (("cart"."token_hash" is null) <> ("cart"."customer_id" is null))
);
--> statement-breakpoint
CREATE TABLE "loyalty_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"delta" integer NOT NULL,
	"reason" text NOT NULL,
	"order_id" integer,
	"note" text,
	"actor" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loyalty_ledger_reason_check" CHECK ("loyalty_ledger"."reason" in ('earned', 'redeemed', 'returned', 'admin_adjustment')),
	CONSTRAINT "loyalty_ledger_delta_check" CHECK ("loyalty_ledger"."delta" <> 0)
);
--> statement-breakpoint
CREATE TABLE "coupon_redemption" (
	"id" serial PRIMARY KEY NOT NULL,
	"coupon_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"customer_id" integer,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_key" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_key_pkey" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
CREATE TABLE "sales_order_line" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"sku" text NOT NULL,
	"name" text NOT NULL,
	"unit_price" integer NOT NULL,
	"qty" integer NOT NULL,
	"vat_rate" numeric(5, 2) NOT NULL,
	"line_total" integer NOT NULL,
	"gift_id" integer,
	CONSTRAINT "sales_order_line_qty_check" CHECK ("sales_order_line"."qty" > 0)
);
--> statement-breakpoint
CREATE TABLE "sales_order" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text GENERATED ALWAYS AS ('SO-' || case when id < 1000000 then lpad(id::text, 6, '0') else id::text end) STORED NOT NULL,
	"customer_id" integer,
	"email" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"currency" text NOT NULL,
	"total" integer NOT NULL,
	"totals" jsonb NOT NULL,
	"address" jsonb NOT NULL,
	"vat_breakdown" jsonb NOT NULL,
	"coupon_id" integer,
	"coupon_code" text,
	"points_spent" integer DEFAULT 0 NOT NULL,
	"transport_id" integer,
	"transport_name" text,
	"pay_way" text,
	"gift_packaging" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sales_order_status_check" CHECK ("sales_order"."status" in ('pending', 'confirmed', 'shipped', 'delivered', 'cancelled')),
	CONSTRAINT "sales_order_total_check" CHECK ("sales_order"."total" >= 0)
);
--> statement-breakpoint
ALTER TABLE "cart_line" ADD CONSTRAINT "cart_line_cart_id_cart_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."cart"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_line" ADD CONSTRAINT "cart_line_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart" ADD CONSTRAINT "cart_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loyalty_ledger" ADD CONSTRAINT "loyalty_ledger_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loyalty_ledger" ADD CONSTRAINT "loyalty_ledger_order_id_sales_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."sales_order"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_redemption" ADD CONSTRAINT "coupon_redemption_coupon_id_coupon_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupon"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_redemption" ADD CONSTRAINT "coupon_redemption_order_id_sales_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."sales_order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_redemption" ADD CONSTRAINT "coupon_redemption_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_order_line" ADD CONSTRAINT "sales_order_line_order_id_sales_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."sales_order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_order" ADD CONSTRAINT "sales_order_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cart_line_product_idx" ON "cart_line" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "cart_updated_at_idx" ON "cart" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "loyalty_ledger_customer_idx" ON "loyalty_ledger" USING btree ("customer_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "coupon_redemption_order_key" ON "coupon_redemption" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "coupon_redemption_customer_idx" ON "coupon_redemption" USING btree ("coupon_id","customer_id");--> statement-breakpoint
CREATE INDEX "coupon_redemption_email_idx" ON "coupon_redemption" USING btree ("coupon_id","email");--> statement-breakpoint
CREATE INDEX "idempotency_key_created_idx" ON "idempotency_key" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sales_order_line_order_idx" ON "sales_order_line" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sales_order_number_key" ON "sales_order" USING btree ("number");--> statement-breakpoint
CREATE INDEX "sales_order_customer_idx" ON "sales_order" USING btree ("customer_id","id");--> statement-breakpoint
CREATE INDEX "sales_order_status_idx" ON "sales_order" USING btree ("status","id");