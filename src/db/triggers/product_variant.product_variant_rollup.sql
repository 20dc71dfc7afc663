CREATE TRIGGER product_variant_rollup AFTER INSERT OR DELETE OR UPDATE OF product_id, stock_qty, price, active ON product_variant FOR EACH ROW EXECUTE FUNCTION product_variant_changed();
