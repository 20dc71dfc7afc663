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
