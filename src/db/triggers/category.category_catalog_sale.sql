CREATE TRIGGER category_catalog_sale AFTER INSERT OR DELETE OR UPDATE OF parent_id ON category FOR EACH STATEMENT EXECUTE FUNCTION catalog_sale_sync()
