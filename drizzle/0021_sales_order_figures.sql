CREATE TABLE "sales_order_figures" (
	"order_id" integer PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"counted" boolean NOT NULL,
	"total" integer NOT NULL,
	"items" integer NOT NULL,
	"discounts" integer NOT NULL,
	"shipping" integer NOT NULL,
	"delivery" integer NOT NULL,
	"gift_packaging" integer NOT NULL,
	"points_cash" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sales_order_figures" ADD CONSTRAINT "sales_order_figures_order_id_sales_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."sales_order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sales_order_figures_created_idx" ON "sales_order_figures" USING btree ("created_at","counted","total","items","discounts","shipping","delivery","gift_packaging","points_cash");--> statement-breakpoint
-- The report rows of an order (sales_order_vat, sales_order_figures) kept by one trigger function,
-- replacing 0020's: written on insert, rewritten when the order's time, totals, breakdown or
-- cancellation changes.
DROP TRIGGER sales_order_vat_on_insert ON sales_order;
--> statement-breakpoint
DROP TRIGGER sales_order_vat_on_update ON sales_order;
--> statement-breakpoint
DROP FUNCTION sales_order_vat_sync();
--> statement-breakpoint
CREATE FUNCTION sales_order_report_rows_sync() RETURNS trigger LANGUAGE plpgsql AS $$
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
  INSERT INTO sales_order_vat (order_id, created_at, rate, net, vat, gross, counted)
  SELECT NEW.id, NEW.created_at, (e->>'rate')::numeric, sum((e->>'net')::int), sum((e->>'vat')::int),
    sum((e->>'gross')::int), NEW.status <> 'cancelled'
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
END $$;
--> statement-breakpoint
CREATE TRIGGER sales_order_report_rows_on_insert AFTER INSERT ON sales_order
  FOR EACH ROW EXECUTE FUNCTION sales_order_report_rows_sync();
--> statement-breakpoint
CREATE TRIGGER sales_order_report_rows_on_update AFTER UPDATE OF status, created_at, total, totals, vat_breakdown
  ON sales_order FOR EACH ROW EXECUTE FUNCTION sales_order_report_rows_sync();
--> statement-breakpoint
INSERT INTO sales_order_figures (order_id, created_at, counted, total, items, discounts, shipping, delivery,
  gift_packaging, points_cash)
SELECT o.id, o.created_at, o.status <> 'cancelled', o.total, coalesce(t."itemCount", 0),
  coalesce(t."couponDiscount", 0), coalesce(t."shippingCost", 0), coalesce(t."deliveryCost", 0),
  coalesce(t."giftPackagingCost", 0), coalesce(t."pointsCash", 0)
FROM sales_order o CROSS JOIN LATERAL jsonb_to_record(o.totals) AS t("itemCount" int, "couponDiscount" int,
  "shippingCost" int, "deliveryCost" int, "giftPackagingCost" int, "pointsCash" int);
