CREATE OR REPLACE FUNCTION public.product_variant_rollup(pid integer)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM 1 FROM product WHERE id = pid FOR NO KEY UPDATE;
  UPDATE product p SET stock_qty = a.stock, in_stock = a.in_stock, price_min = a.pmin, price_max = a.pmax
  FROM (
    SELECT coalesce(sum(v.stock_qty), 0)::int AS stock,
           coalesce(bool_or(v.active AND v.stock_qty > 0), false) AS in_stock,
           min(coalesce(v.price, pp.price)) FILTER (WHERE v.active) AS pmin,
           max(coalesce(v.price, pp.price)) FILTER (WHERE v.active) AS pmax
    FROM product pp LEFT JOIN product_variant v ON v.product_id = pp.id
    WHERE pp.id = pid
  ) a
  WHERE p.id = pid
    AND (p.stock_qty, p.in_stock, p.price_min, p.price_max) IS DISTINCT FROM (a.stock, a.in_stock, a.pmin, a.pmax);
END
$function$;
