-- Promotion names are translatable (docs/translations.md). The promotion_version trigger fires on an
-- update of any column, so a change of these texts drops the kept answers too.
ALTER TABLE "promotion" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
-- A product's translations now hold its options in a locale (an array): search_text takes the
-- string texts only, as before (no stored row holds a translated option yet, so none is stale).
CREATE OR REPLACE FUNCTION public.shop_translated_text(jsonb)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE STRICT
AS $function$ SELECT coalesce(string_agg(f.value #>> '{}', ' '), '') FROM jsonb_each($1) l, jsonb_each(l.value) f WHERE f.key <> 'slug' AND jsonb_typeof(f.value) = 'string' $function$;
