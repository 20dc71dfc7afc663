-- Every version bump is published with pg_notify in the writing transaction, so each instance
-- keeps the current table versions in memory from a LISTEN connection and drops cached answers
-- that read an older version (docs/performance.md, "The shared cache"). The channel carries
-- "<table> <version>"; PostgreSQL delivers it at commit, never for a rolled-back write.
CREATE OR REPLACE FUNCTION public.bump_resource_version()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  written bigint;
BEGIN
  INSERT INTO resource_version (name, version, written_by)
  VALUES (TG_ARGV[0], nextval('resource_version_seq'), pg_current_xact_id()::text::bigint)
  ON CONFLICT (name) DO UPDATE SET version = excluded.version, written_by = excluded.written_by
    WHERE resource_version.written_by IS DISTINCT FROM excluded.written_by
  RETURNING version INTO written;
  IF written IS NOT NULL THEN
    PERFORM pg_notify('resource_version', TG_ARGV[0] || ' ' || written);
  END IF;
  RETURN NULL;
END
$function$;
--> statement-breakpoint
-- A cached answer shows every public column, so a version now moves on an update of any column an
-- answer shows; the stock alone moves it only where the stock status a guest sees changes (out of
-- stock at 0, low stock below 5: LOW_STOCK_BELOW in src/modules/catalog/stock.ts), so checkout's
-- stock updates do not queue on the version row.
DROP TRIGGER product_version ON product;
--> statement-breakpoint
CREATE TRIGGER product_version AFTER INSERT OR DELETE OR UPDATE OF id, sku, slug, name, description, price, reference_price, cost_price, vat_rate, options, weight_kg, category_id, brand, images, supplier_code, admin_notes, active, created_at ON product FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('product');
--> statement-breakpoint
DROP TRIGGER product_version_rollup ON product;
--> statement-breakpoint
CREATE TRIGGER product_version_rollup AFTER UPDATE OF stock_qty, in_stock, price_min, price_max ON product FOR EACH ROW WHEN (old.in_stock IS DISTINCT FROM new.in_stock OR old.price_min IS DISTINCT FROM new.price_min OR old.price_max IS DISTINCT FROM new.price_max OR (old.stock_qty <= 0) <> (new.stock_qty <= 0) OR (old.stock_qty < 5) <> (new.stock_qty < 5)) EXECUTE FUNCTION bump_resource_version('product');
--> statement-breakpoint
DROP TRIGGER product_variant_version ON product_variant;
--> statement-breakpoint
CREATE TRIGGER product_variant_version AFTER INSERT OR DELETE OR UPDATE OF id, product_id, sku, options, price, reference_price, weight_kg, images, "position", active ON product_variant FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('product_variant');
--> statement-breakpoint
CREATE TRIGGER product_variant_stock_version AFTER UPDATE OF stock_qty ON product_variant FOR EACH ROW WHEN ((old.stock_qty <= 0) <> (new.stock_qty <= 0) OR (old.stock_qty < 5) <> (new.stock_qty < 5)) EXECUTE FUNCTION bump_resource_version('product_variant');
--> statement-breakpoint
DROP TRIGGER category_version ON category;
--> statement-breakpoint
CREATE TRIGGER category_version AFTER INSERT OR DELETE OR UPDATE ON category FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('category');
--> statement-breakpoint
DROP TRIGGER transport_version ON transport;
--> statement-breakpoint
CREATE TRIGGER transport_version AFTER INSERT OR DELETE OR UPDATE ON transport FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('transport');
--> statement-breakpoint
DROP TRIGGER reel_version ON reel;
--> statement-breakpoint
CREATE TRIGGER reel_version AFTER INSERT OR DELETE OR UPDATE ON reel FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('reel');
--> statement-breakpoint
DROP TRIGGER slider_version ON slider;
--> statement-breakpoint
CREATE TRIGGER slider_version AFTER INSERT OR DELETE OR UPDATE ON slider FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('slider');
--> statement-breakpoint
DROP TRIGGER slider_group_version ON slider_group;
--> statement-breakpoint
CREATE TRIGGER slider_group_version AFTER INSERT OR DELETE OR UPDATE ON slider_group FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('slider_group');
--> statement-breakpoint
DROP TRIGGER gift_version ON gift;
--> statement-breakpoint
CREATE TRIGGER gift_version AFTER INSERT OR DELETE OR UPDATE ON gift FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('gift');
--> statement-breakpoint
-- Settings change the answers that show them (currency, the reference price, the storefront
-- configuration, the page size ceiling).
CREATE TRIGGER setting_version AFTER INSERT OR DELETE OR UPDATE ON setting FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('setting');
--> statement-breakpoint
CREATE TRIGGER setting_version_truncate AFTER TRUNCATE ON setting FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('setting');
