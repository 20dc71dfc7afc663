CREATE TABLE "promotion_redemption" (
	"promotion_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "promotion" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"conditions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"action" jsonb NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"priority" integer DEFAULT 0 NOT NULL,
	"exclusive" boolean DEFAULT false NOT NULL,
	"combines_with_coupons" boolean DEFAULT true NOT NULL,
	"usage_limit" integer,
	"used_count" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotion_kind_check" CHECK ("promotion"."kind" in ('catalog', 'cart')),
	CONSTRAINT "promotion_window_check" CHECK ("promotion"."ends_at" is null or "promotion"."starts_at" is null or "promotion"."ends_at" > "promotion"."starts_at"),
	CONSTRAINT "promotion_used_count_check" CHECK ("promotion"."used_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "promotion_redemption" ADD CONSTRAINT "promotion_redemption_promotion_id_promotion_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotion"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "promotion_redemption_order_idx" ON "promotion_redemption" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "promotion_redemption_promotion_idx" ON "promotion_redemption" USING btree ("promotion_id","created_at");--> statement-breakpoint
CREATE INDEX "promotion_kind_idx" ON "promotion" USING btree ("kind","active");--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.category_path(integer)
 RETURNS integer[]
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
AS $function$
DECLARE
  path integer[] := '{}';
  current integer := $1;
BEGIN
  WHILE current IS NOT NULL AND cardinality(path) < 32 LOOP
    path := path || current;
    SELECT c.parent_id INTO current FROM category c WHERE c.id = current;
  END LOOP;
  RETURN path;
END
$function$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.catalog_price(integer, integer, integer, text)
 RETURNS integer
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
AS $function$
DECLARE
  path integer[];
  best integer;
BEGIN
  IF $1 IS NULL THEN RETURN NULL; END IF;
  IF $3 IS NOT NULL THEN path := category_path($3); END IF;
  SELECT min(CASE WHEN p.action ->> 'type' = 'percent'
      THEN $1 - round($1 * (p.action ->> 'value')::numeric / 100)::integer
      ELSE greatest(0, $1 - round((p.action ->> 'value')::numeric * 100)::integer) END)
    INTO best
    FROM promotion p
    WHERE p.kind = 'catalog' AND p.active
      AND (p.starts_at IS NULL OR p.starts_at <= now()) AND (p.ends_at IS NULL OR p.ends_at > now())
      AND (coalesce(jsonb_array_length(p.conditions -> 'productIds'), 0) = 0
        OR p.conditions -> 'productIds' @> to_jsonb($2))
      AND (coalesce(jsonb_array_length(p.conditions -> 'brands'), 0) = 0 OR p.conditions -> 'brands' ? $4)
      AND (coalesce(jsonb_array_length(p.conditions -> 'categoryIds'), 0) = 0
        OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(p.conditions -> 'categoryIds') c(id)
                   WHERE c.id::integer = ANY(path)));
  RETURN coalesce(least(best, $1), $1);
END
$function$;
--> statement-breakpoint
CREATE TRIGGER promotion_version AFTER INSERT OR DELETE OR UPDATE ON promotion FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('promotion');
--> statement-breakpoint
CREATE TRIGGER promotion_version_truncate AFTER TRUNCATE ON promotion FOR EACH STATEMENT EXECUTE FUNCTION bump_resource_version('promotion');
