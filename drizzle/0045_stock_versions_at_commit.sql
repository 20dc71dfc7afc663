-- The stock triggers move the versions of `product` and `product_variant` at commit, both in that
-- order, instead of in the middle of an order's stock reservation: there, the version row was
-- locked between two product locks, and two orders crossing stock thresholds on each other's
-- products deadlocked (docs/checkout.md, "Locks").
CREATE OR REPLACE FUNCTION public.bump_resource_version()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  resource text;
  written bigint;
BEGIN
  FOREACH resource IN ARRAY TG_ARGV LOOP
    INSERT INTO resource_version (name, version, written_by)
    VALUES (resource, nextval('resource_version_seq'), pg_current_xact_id()::text::bigint)
    ON CONFLICT (name) DO UPDATE SET version = excluded.version, written_by = excluded.written_by
      WHERE resource_version.written_by IS DISTINCT FROM excluded.written_by
    RETURNING version INTO written;
    IF written IS NOT NULL THEN
      PERFORM pg_notify('resource_version', resource || ' ' || written);
    END IF;
  END LOOP;
  RETURN NULL;
END
$function$;
--> statement-breakpoint
DROP TRIGGER product_version_rollup ON product;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_version_rollup AFTER UPDATE OF stock_qty, in_stock, price_min, price_max ON product DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (old.in_stock IS DISTINCT FROM new.in_stock OR old.price_min IS DISTINCT FROM new.price_min OR old.price_max IS DISTINCT FROM new.price_max OR (old.stock_qty <= 0) <> (new.stock_qty <= 0) OR (old.stock_qty < 5) <> (new.stock_qty < 5)) EXECUTE FUNCTION bump_resource_version('product', 'product_variant');
--> statement-breakpoint
DROP TRIGGER product_variant_stock_version ON product_variant;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_variant_stock_version AFTER UPDATE OF stock_qty ON product_variant DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ((old.stock_qty <= 0) <> (new.stock_qty <= 0) OR (old.stock_qty < 5) <> (new.stock_qty < 5)) EXECUTE FUNCTION bump_resource_version('product', 'product_variant');
