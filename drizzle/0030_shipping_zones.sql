CREATE TABLE "shipping_rate" (
	"id" serial PRIMARY KEY NOT NULL,
	"transport_id" integer NOT NULL,
	"zone_id" integer NOT NULL,
	"price" integer NOT NULL,
	"free_shipping_threshold" integer,
	"weight_bands" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"overweight_price_per_kg" integer DEFAULT 0 NOT NULL,
	"cod_fee" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipping_rate_money_check" CHECK ("shipping_rate"."price" >= 0 and "shipping_rate"."overweight_price_per_kg" >= 0 and "shipping_rate"."cod_fee" >= 0 and coalesce("shipping_rate"."free_shipping_threshold", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "shipping_zone" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"countries" text[] NOT NULL,
	"regions" text[] DEFAULT '{}'::text[] NOT NULL,
	"postal_codes" jsonb DEFAULT '{"include":[],"exclude":[]}'::jsonb NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipping_zone_countries_check" CHECK (cardinality("shipping_zone"."countries") > 0)
);
--> statement-breakpoint
CREATE TABLE "tax_rate" (
	"id" serial PRIMARY KEY NOT NULL,
	"country_alpha2" text NOT NULL,
	"tax_class" text NOT NULL,
	"rate" numeric(5, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_rate_check" CHECK ("tax_rate"."tax_class" in ('standard', 'reduced', 'super_reduced', 'zero') and "tax_rate"."rate" between 0 and 100)
);
--> statement-breakpoint
DROP INDEX "sales_order_vat_created_idx";--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "tax_class" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "transport" ADD COLUMN "tax_class" text;--> statement-breakpoint
ALTER TABLE "sales_order_vat" ADD COLUMN "country" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "sales_order" ADD COLUMN "vat_id" text;--> statement-breakpoint
ALTER TABLE "sales_order" ADD COLUMN "shipping_rate" jsonb;--> statement-breakpoint
ALTER TABLE "shipping_rate" ADD CONSTRAINT "shipping_rate_transport_id_transport_id_fk" FOREIGN KEY ("transport_id") REFERENCES "public"."transport"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipping_rate" ADD CONSTRAINT "shipping_rate_zone_id_shipping_zone_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."shipping_zone"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shipping_rate_transport_zone_key" ON "shipping_rate" USING btree ("transport_id","zone_id");--> statement-breakpoint
CREATE INDEX "shipping_rate_zone_idx" ON "shipping_rate" USING btree ("zone_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_rate_country_class_key" ON "tax_rate" USING btree ("country_alpha2","tax_class");--> statement-breakpoint
CREATE INDEX "sales_order_vat_created_idx" ON "sales_order_vat" USING btree ("created_at","rate","net","vat","gross","counted","country");--> statement-breakpoint
ALTER TABLE "product" ADD CONSTRAINT "product_tax_class_check" CHECK ("product"."tax_class" in ('standard', 'reduced', 'super_reduced', 'zero'));--> statement-breakpoint
ALTER TABLE "transport" ADD CONSTRAINT "transport_tax_class_check" CHECK ("transport"."tax_class" is null or "transport"."tax_class" in ('standard', 'reduced', 'super_reduced', 'zero'));--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.sales_order_report_rows_sync()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.created_at IS NOT DISTINCT FROM OLD.created_at
       AND NEW.vat_breakdown IS NOT DISTINCT FROM OLD.vat_breakdown
       AND NEW.totals IS NOT DISTINCT FROM OLD.totals
       AND NEW.total IS NOT DISTINCT FROM OLD.total
       AND (NEW.status = 'cancelled') = (OLD.status = 'cancelled') THEN
      RETURN NULL;
    END IF;
    DELETE FROM sales_order_vat WHERE order_id = NEW.id;
    DELETE FROM sales_order_figures WHERE order_id = NEW.id;
  END IF;
  INSERT INTO sales_order_vat (order_id, created_at, rate, net, vat, gross, counted, country)
  SELECT NEW.id, NEW.created_at, (e->>'rate')::numeric, sum((e->>'net')::int), sum((e->>'vat')::int),
    sum((e->>'gross')::int), NEW.status <> 'cancelled', coalesce(NEW.address->>'countryAlpha2', '')
  FROM jsonb_array_elements(NEW.vat_breakdown) e
  GROUP BY (e->>'rate')::numeric;
  INSERT INTO sales_order_figures (order_id, created_at, counted, total, items, discounts, shipping, delivery,
    gift_packaging, points_cash)
  SELECT NEW.id, NEW.created_at, NEW.status <> 'cancelled', NEW.total, coalesce(t."itemCount", 0),
    coalesce(t."couponDiscount", 0), coalesce(t."shippingCost", 0), coalesce(t."deliveryCost", 0),
    coalesce(t."giftPackagingCost", 0), coalesce(t."pointsCash", 0)
  FROM jsonb_to_record(NEW.totals) AS t("itemCount" int, "couponDiscount" int, "shippingCost" int,
    "deliveryCost" int, "giftPackagingCost" int, "pointsCash" int);
  RETURN NULL;
END $function$;
--> statement-breakpoint
UPDATE "sales_order_vat" v SET "country" = coalesce(o.address->>'countryAlpha2', '') FROM "sales_order" o WHERE o.id = v.order_id;
