CREATE TRIGGER product_stock_threshold AFTER UPDATE OF stock_qty ON product FOR EACH ROW WHEN (new.stock_qty < old.stock_qty) EXECUTE FUNCTION record_stock_threshold_event();
