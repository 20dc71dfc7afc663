-- The fallback of settings that database code reads, written by the service at start
-- (src/modules/settings): a value given only in the configuration file's `settings` now counts for
-- the stock events as it does for the service (it was the stored value, else 5).
CREATE TABLE "setting_default" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION record_stock_threshold_event() RETURNS trigger LANGUAGE plpgsql AS $$
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
$$;
