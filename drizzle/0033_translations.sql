-- Translations (docs/translations.md): the texts of translatable fields in other locales, one jsonb
-- column per table; catalog search also reads the translated texts of products.
CREATE OR REPLACE FUNCTION public.shop_translated_text(jsonb)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE STRICT
AS $function$ SELECT coalesce(string_agg(f.value, ' '), '') FROM jsonb_each($1) l, jsonb_each_text(l.value) f WHERE f.key <> 'slug' $function$;--> statement-breakpoint
ALTER TABLE "category" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "gift" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "transport" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "reel" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "slider" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "product" DROP COLUMN "search_text";--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "search_text" text GENERATED ALWAYS AS (shop_unaccent(lower(name || ' ' || coalesce(brand, '') || ' ' || sku || ' ' || description || ' ' || shop_translated_text(translations)))) STORED;--> statement-breakpoint
CREATE INDEX "product_search_text_idx" ON "product" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "category_translations_idx" ON "category" USING gin ("translations");--> statement-breakpoint
CREATE INDEX "product_translations_idx" ON "product" USING gin ("translations");
