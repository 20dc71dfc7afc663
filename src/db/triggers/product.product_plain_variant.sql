CREATE TRIGGER product_plain_variant AFTER INSERT ON product FOR EACH ROW EXECUTE FUNCTION product_plain_variant();
