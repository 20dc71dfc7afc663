CREATE TRIGGER promotion_catalog_sale AFTER INSERT OR DELETE OR UPDATE OF kind, conditions, action, starts_at, ends_at, active ON promotion FOR EACH STATEMENT EXECUTE FUNCTION catalog_sale_sync()
