CREATE TABLE "category" (
	"id" serial PRIMARY KEY NOT NULL,
	"parent_id" integer,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_price_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"price" integer NOT NULL,
	"valid_from" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product" (
	"id" serial PRIMARY KEY NOT NULL,
	"sku" text NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price" integer NOT NULL,
	"reference_price" integer,
	"cost_price" integer,
	"vat_rate" numeric(5, 2) DEFAULT 19 NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"stock_qty" integer DEFAULT 0 NOT NULL,
	"weight_kg" numeric(10, 3) DEFAULT 0 NOT NULL,
	"category_id" integer,
	"brand" text,
	"images" text[] DEFAULT '{}'::text[] NOT NULL,
	"supplier_code" text,
	"admin_notes" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_price_check" CHECK ("product"."price" >= 0),
	CONSTRAINT "product_cost_price_check" CHECK ("product"."cost_price" >= 0),
	CONSTRAINT "product_stock_qty_check" CHECK ("product"."stock_qty" >= 0)
);
--> statement-breakpoint
CREATE TABLE "coupon" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"type" text NOT NULL,
	"value" integer NOT NULL,
	"min_subtotal" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"usage_limit" integer,
	"per_customer_limit" integer,
	"used_count" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupon_type_check" CHECK ("coupon"."type" in ('percent', 'fixed')),
	CONSTRAINT "coupon_value_check" CHECK ("coupon"."value" > 0 and ("coupon"."type" = 'fixed' or "coupon"."value" <= 10000)),
	CONSTRAINT "coupon_used_count_check" CHECK ("coupon"."used_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "gift" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"product_ids" integer[] NOT NULL,
	"min_subtotal" integer DEFAULT 0 NOT NULL,
	"max_qty" integer DEFAULT 1 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gift_max_qty_check" CHECK ("gift"."max_qty" >= 1)
);
--> statement-breakpoint
CREATE TABLE "transport" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price" integer NOT NULL,
	"free_shipping_threshold" integer,
	"included_weight_kg" numeric(10, 3) DEFAULT 0 NOT NULL,
	"overweight_price_per_kg" integer DEFAULT 0 NOT NULL,
	"cod_fee" integer DEFAULT 0 NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transport_money_check" CHECK ("transport"."price" >= 0 and "transport"."overweight_price_per_kg" >= 0 and "transport"."cod_fee" >= 0 and coalesce("transport"."free_shipping_threshold", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "reel" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"video_url" text NOT NULL,
	"poster_url" text,
	"product_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "slider_group" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "slider" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"title" text NOT NULL,
	"subtitle" text,
	"image_url" text NOT NULL,
	"link_url" text,
	"position" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "address" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"label" text,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"company" text,
	"phone" text,
	"street" text NOT NULL,
	"city" text NOT NULL,
	"county_alpha" text,
	"country_alpha2" text NOT NULL,
	"postal_code" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wishlist_item" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "category" ADD CONSTRAINT "category_parent_id_category_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."category"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_price_history" ADD CONSTRAINT "product_price_history_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product" ADD CONSTRAINT "product_category_id_category_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."category"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slider" ADD CONSTRAINT "slider_group_id_slider_group_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."slider_group"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "address" ADD CONSTRAINT "address_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wishlist_item" ADD CONSTRAINT "wishlist_item_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wishlist_item" ADD CONSTRAINT "wishlist_item_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "category_slug_key" ON "category" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "category_parent_idx" ON "category" USING btree ("parent_id","id");--> statement-breakpoint
CREATE INDEX "category_position_idx" ON "category" USING btree ("position","id");--> statement-breakpoint
CREATE INDEX "product_price_history_product_idx" ON "product_price_history" USING btree ("product_id","valid_from");--> statement-breakpoint
CREATE UNIQUE INDEX "product_sku_key" ON "product" USING btree ("sku");--> statement-breakpoint
CREATE UNIQUE INDEX "product_slug_key" ON "product" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "product_category_idx" ON "product" USING btree ("category_id","id");--> statement-breakpoint
CREATE INDEX "product_brand_idx" ON "product" USING btree ("brand","id");--> statement-breakpoint
CREATE INDEX "product_price_idx" ON "product" USING btree ("price","id");--> statement-breakpoint
CREATE INDEX "product_name_idx" ON "product" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "product_created_at_idx" ON "product" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "coupon_code_key" ON "coupon" USING btree (lower("code"));--> statement-breakpoint
CREATE INDEX "transport_position_idx" ON "transport" USING btree ("position","id");--> statement-breakpoint
CREATE INDEX "reel_position_idx" ON "reel" USING btree ("position","id");--> statement-breakpoint
CREATE UNIQUE INDEX "slider_group_code_key" ON "slider_group" USING btree ("code");--> statement-breakpoint
CREATE INDEX "slider_group_position_idx" ON "slider" USING btree ("group_id","position","id");--> statement-breakpoint
CREATE INDEX "address_customer_idx" ON "address" USING btree ("customer_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "wishlist_item_customer_product_key" ON "wishlist_item" USING btree ("customer_id","product_id");--> statement-breakpoint
CREATE INDEX "wishlist_item_product_idx" ON "wishlist_item" USING btree ("product_id");