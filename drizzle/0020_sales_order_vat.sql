CREATE TABLE "sales_order_vat" (
	"order_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"rate" numeric(5, 2) NOT NULL,
	"net" integer NOT NULL,
	"vat" integer NOT NULL,
	"gross" integer NOT NULL,
	"counted" boolean DEFAULT true NOT NULL,
	CONSTRAINT "sales_order_vat_pkey" PRIMARY KEY("order_id","rate")
);
--> statement-breakpoint
ALTER TABLE "sales_order_vat" ADD CONSTRAINT "sales_order_vat_order_id_sales_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."sales_order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sales_order_vat_created_idx" ON "sales_order_vat" USING btree ("created_at","rate","net","vat","gross","counted");--> statement-breakpoint
-- Each order's VAT breakdown as rows, kept by the database itself (src/modules/orders/after-order.tables.ts):
-- written when an order is inserted, rewritten when its time or breakdown changes, `counted` false
-- once it is cancelled. Per order and rate, so concurrent orders never touch the same row.
CREATE FUNCTION sales_order_vat_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.created_at IS NOT DISTINCT FROM OLD.created_at
       AND NEW.vat_breakdown IS NOT DISTINCT FROM OLD.vat_breakdown
       AND (NEW.status = 'cancelled') = (OLD.status = 'cancelled') THEN
      RETURN NULL;
    END IF;
    DELETE FROM sales_order_vat WHERE order_id = NEW.id;
  END IF;
  INSERT INTO sales_order_vat (order_id, created_at, rate, net, vat, gross, counted)
  SELECT NEW.id, NEW.created_at, (e->>'rate')::numeric, sum((e->>'net')::int), sum((e->>'vat')::int),
    sum((e->>'gross')::int), NEW.status <> 'cancelled'
  FROM jsonb_array_elements(NEW.vat_breakdown) e
  GROUP BY (e->>'rate')::numeric;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sales_order_vat_on_insert AFTER INSERT ON sales_order
  FOR EACH ROW EXECUTE FUNCTION sales_order_vat_sync();
--> statement-breakpoint
CREATE TRIGGER sales_order_vat_on_update AFTER UPDATE OF status, created_at, vat_breakdown ON sales_order
  FOR EACH ROW EXECUTE FUNCTION sales_order_vat_sync();
--> statement-breakpoint
INSERT INTO sales_order_vat (order_id, created_at, rate, net, vat, gross, counted)
SELECT o.id, o.created_at, (e->>'rate')::numeric, sum((e->>'net')::int), sum((e->>'vat')::int),
  sum((e->>'gross')::int), o.status <> 'cancelled'
FROM sales_order o CROSS JOIN LATERAL jsonb_array_elements(o.vat_breakdown) e
GROUP BY o.id, (e->>'rate')::numeric;
