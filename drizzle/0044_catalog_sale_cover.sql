CREATE TABLE "catalog_sale_cover" (
	"category_ids" integer[]
);
--> statement-breakpoint
-- A price read calls sale_price only for a product in a category an active catalog sale covers
-- (docs/promotions.md, "Performance"): the call and its loop over the running sales cost about
-- 4 µs a price, four prices a row; every other price is the stored one.
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
  -- The categories a price read calls sale_price for; null (any product) when a sale has no category list.
  DELETE FROM catalog_sale_cover;
  INSERT INTO catalog_sale_cover (category_ids)
  SELECT CASE WHEN coalesce(bool_and(s.category_ids IS NOT NULL), true)
    THEN array(SELECT DISTINCT c FROM catalog_sale t, unnest(t.category_ids) c ORDER BY c) END
  FROM catalog_sale s;
END
$function$;
--> statement-breakpoint
SELECT catalog_sale_rebuild();
