CREATE TRIGGER product_to_plain_variant AFTER UPDATE OF stock_qty, sku ON product FOR EACH ROW EXECUTE FUNCTION product_to_plain_variant();
