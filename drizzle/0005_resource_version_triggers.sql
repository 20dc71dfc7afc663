-- Table versions for cached list totals (src/resources/count-cache.ts): a statement-level
-- trigger bumps resource_version.<table> on insert, delete, truncate and on updates of the
-- columns lists filter, search or hide rows by. Stock updates (checkout) do not bump it.
CREATE FUNCTION bump_resource_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO resource_version (name, version) VALUES (TG_ARGV[0], 1)
  ON CONFLICT (name) DO UPDATE SET version = resource_version.version + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER product_version AFTER INSERT OR DELETE OR UPDATE OF id, sku, slug, name, description, price, category_id, brand, active, created_at
  ON product FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('product');
--> statement-breakpoint
CREATE TRIGGER product_version_truncate AFTER TRUNCATE ON product FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('product');
--> statement-breakpoint
CREATE TRIGGER category_version AFTER INSERT OR DELETE OR UPDATE OF id, parent_id, name, slug, active
  ON category FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('category');
--> statement-breakpoint
CREATE TRIGGER category_version_truncate AFTER TRUNCATE ON category FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('category');
--> statement-breakpoint
CREATE TRIGGER transport_version AFTER INSERT OR DELETE OR UPDATE OF id, active
  ON transport FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('transport');
--> statement-breakpoint
CREATE TRIGGER transport_version_truncate AFTER TRUNCATE ON transport FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('transport');
--> statement-breakpoint
CREATE TRIGGER gift_version AFTER INSERT OR DELETE OR UPDATE OF id, min_subtotal, active
  ON gift FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('gift');
--> statement-breakpoint
CREATE TRIGGER gift_version_truncate AFTER TRUNCATE ON gift FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('gift');
--> statement-breakpoint
CREATE TRIGGER reel_version AFTER INSERT OR DELETE OR UPDATE OF id, title, active
  ON reel FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('reel');
--> statement-breakpoint
CREATE TRIGGER reel_version_truncate AFTER TRUNCATE ON reel FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('reel');
--> statement-breakpoint
CREATE TRIGGER slider_group_version AFTER INSERT OR DELETE OR UPDATE OF id, code, active
  ON slider_group FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('slider_group');
--> statement-breakpoint
CREATE TRIGGER slider_group_version_truncate AFTER TRUNCATE ON slider_group FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('slider_group');
--> statement-breakpoint
CREATE TRIGGER slider_version AFTER INSERT OR DELETE OR UPDATE OF id, group_id, active
  ON slider FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('slider');
--> statement-breakpoint
CREATE TRIGGER slider_version_truncate AFTER TRUNCATE ON slider FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('slider');
