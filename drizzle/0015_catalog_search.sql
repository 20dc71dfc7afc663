-- Catalog search (docs/catalog.md): trigram indexes (pg_trgm) over accent-folded text (unaccent).
-- Both are trusted extensions on PostgreSQL; PGlite loads them at start (src/db/client.ts).
-- unaccent() is only STABLE (it reads its dictionary by name), so the generated column calls an
-- IMMUTABLE wrapper that names the dictionary itself.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE OR REPLACE FUNCTION shop_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "search_text" text GENERATED ALWAYS AS (shop_unaccent(lower(name || ' ' || coalesce(brand, '') || ' ' || sku || ' ' || description))) STORED;--> statement-breakpoint
CREATE INDEX "product_search_text_idx" ON "product" USING gin ("search_text" gin_trgm_ops);