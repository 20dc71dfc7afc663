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
    coalesce(t."couponDiscount", 0) + coalesce(t."promotionDiscount", 0), coalesce(t."shippingCost", 0), coalesce(t."deliveryCost", 0),
    coalesce(t."giftPackagingCost", 0), coalesce(t."pointsCash", 0)
  FROM jsonb_to_record(NEW.totals) AS t("itemCount" int, "couponDiscount" int, "promotionDiscount" int, "shippingCost" int,
    "deliveryCost" int, "giftPackagingCost" int, "pointsCash" int);
  RETURN NULL;
END $function$;
