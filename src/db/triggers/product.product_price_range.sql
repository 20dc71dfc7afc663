CREATE TRIGGER product_price_range BEFORE UPDATE OF price ON product FOR EACH ROW WHEN (old.price IS DISTINCT FROM new.price) EXECUTE FUNCTION product_price_range();
