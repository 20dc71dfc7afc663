-- product.stock_low and product.out_of_stock, written to the outbox in the transaction that
-- moves the stock (a sale, a manual change) whatever code path does it: the event is raised
-- once, when the quantity crosses the threshold downwards, not on every sale below it.
-- The threshold is the setting stock_low_threshold as stored by an operator, else its default 5.
CREATE FUNCTION record_stock_threshold_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  threshold integer;
BEGIN
  SELECT CASE WHEN jsonb_typeof(value) = 'number' THEN (value #>> '{}')::integer END
    INTO threshold FROM setting WHERE key = 'stock_low_threshold';
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
--> statement-breakpoint
CREATE TRIGGER product_stock_threshold AFTER UPDATE OF stock_qty ON product
  FOR EACH ROW WHEN (NEW.stock_qty < OLD.stock_qty)
  EXECUTE FUNCTION record_stock_threshold_event();
