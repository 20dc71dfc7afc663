-- The quote reads each cart line's category path from the category tree the service keeps
-- (src/modules/catalog/category-paths.ts) instead of a plpgsql loop per line: nothing calls it now.
DROP FUNCTION IF EXISTS public.category_path(integer);
