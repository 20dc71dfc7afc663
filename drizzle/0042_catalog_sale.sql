CREATE TABLE "catalog_sale" (
	"promotion_id" integer PRIMARY KEY NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"product_ids" integer[],
	"brands" text[],
	"category_ids" integer[],
	"percent" boolean NOT NULL,
	"value" numeric NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalog_sale" ADD CONSTRAINT "catalog_sale_promotion_id_promotion_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotion"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Catalog sales as a price read applies them (docs/promotions.md, "Performance"): catalog_price
-- read the promotions and walked the category tree for every price of every row (about 45 µs a
-- call, four calls a row); sale_price takes the running sales as an argument the statement reads
-- once, each with its categories already expanded to the ones below them.
CREATE OR REPLACE FUNCTION public.catalog_sale_rebuild()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  -- Writers of promotions and categories take turns here; each statement below then reads what
  -- the one before committed, so two concurrent writes never leave a stale row.
  PERFORM pg_advisory_xact_lock(hashtext('catalog_sale'));
  DELETE FROM catalog_sale;
  INSERT INTO catalog_sale (promotion_id, starts_at, ends_at, product_ids, brands, category_ids, percent, value)
  SELECT p.id, p.starts_at, p.ends_at,
    nullif(array(SELECT e::integer FROM jsonb_array_elements_text(coalesce(p.conditions -> 'productIds', '[]')) e), '{}'),
    nullif(array(SELECT e FROM jsonb_array_elements_text(coalesce(p.conditions -> 'brands', '[]')) e), '{}'),
    CASE WHEN coalesce(jsonb_array_length(p.conditions -> 'categoryIds'), 0) > 0 THEN array(
      WITH RECURSIVE below(id, depth) AS (
        SELECT c.id, 1 FROM category c
        WHERE c.id IN (SELECT e::integer FROM jsonb_array_elements_text(p.conditions -> 'categoryIds') e)
        UNION
        SELECT c.id, b.depth + 1 FROM category c JOIN below b ON c.parent_id = b.id WHERE b.depth < 32)
      SELECT DISTINCT id FROM below) END,
    p.action ->> 'type' = 'percent', (p.action ->> 'value')::numeric
  FROM promotion p
  WHERE p.kind = 'catalog' AND p.active;
END
$function$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.catalog_sale_sync()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM catalog_sale_rebuild();
  RETURN NULL;
END
$function$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.sale_price(integer, integer, integer, text, catalog_sale[])
 RETURNS integer
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
AS $function$
DECLARE
  sale catalog_sale;
  best integer := $1;
BEGIN
  IF $1 IS NULL OR cardinality($5) = 0 THEN RETURN $1; END IF;
  FOREACH sale IN ARRAY $5 LOOP
    CONTINUE WHEN sale.product_ids IS NOT NULL AND NOT $2 = ANY(sale.product_ids);
    CONTINUE WHEN sale.brands IS NOT NULL AND NOT coalesce($4 = ANY(sale.brands), false);
    CONTINUE WHEN sale.category_ids IS NOT NULL AND NOT coalesce($3 = ANY(sale.category_ids), false);
    best := least(best, CASE WHEN sale.percent THEN $1 - round($1 * sale.value / 100)::integer
      ELSE greatest(0, $1 - round(sale.value * 100)::integer) END);
  END LOOP;
  RETURN best;
END
$function$;
--> statement-breakpoint
CREATE TRIGGER promotion_catalog_sale AFTER INSERT OR DELETE OR UPDATE OF kind, conditions, action, starts_at, ends_at, active ON promotion FOR EACH STATEMENT EXECUTE FUNCTION catalog_sale_sync();
--> statement-breakpoint
CREATE TRIGGER category_catalog_sale AFTER INSERT OR DELETE OR UPDATE OF parent_id ON category FOR EACH STATEMENT EXECUTE FUNCTION catalog_sale_sync();
--> statement-breakpoint
SELECT catalog_sale_rebuild();
--> statement-breakpoint
DROP FUNCTION public.catalog_price(integer, integer, integer, text);
