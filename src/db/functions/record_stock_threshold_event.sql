CREATE OR REPLACE FUNCTION public.record_stock_threshold_event()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  threshold integer;
BEGIN
  SELECT CASE WHEN jsonb_typeof(value) = 'number' THEN (value #>> '{}')::integer END
    INTO threshold FROM setting WHERE key = 'stock_low_threshold';
  IF threshold IS NULL THEN
    SELECT CASE WHEN jsonb_typeof(value) = 'number' THEN (value #>> '{}')::integer END
      INTO threshold FROM setting_default WHERE key = 'stock_low_threshold';
  END IF;
  threshold := coalesce(threshold, 5);
  IF NEW.stock_qty = 0 THEN
    INSERT INTO outbox_event (type, payload) VALUES ('product.out_of_stock',
      jsonb_build_object('productId', NEW.id, 'sku', NEW.sku, 'stockQty', NEW.stock_qty, 'previousStockQty', OLD.stock_qty));
  ELSIF NEW.stock_qty <= threshold AND OLD.stock_qty > threshold THEN
    INSERT INTO outbox_event (type, payload) VALUES ('product.stock_low',
      jsonb_build_object('productId', NEW.id, 'sku', NEW.sku, 'stockQty', NEW.stock_qty, 'previousStockQty', OLD.stock_qty,
        'threshold', threshold));
  END IF;
  RETURN NULL;
END
$function$;
