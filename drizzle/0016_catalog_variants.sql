CREATE TABLE "product_variant" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"sku" text NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"price" integer,
	"reference_price" integer,
	"stock_qty" integer DEFAULT 0 NOT NULL,
	"weight_kg" numeric(10, 3),
	"images" text[] DEFAULT '{}'::text[] NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_variant_price_check" CHECK ("product_variant"."price" >= 0),
	CONSTRAINT "product_variant_stock_qty_check" CHECK ("product_variant"."stock_qty" >= 0)
);
--> statement-breakpoint
-- Added nullable, filled from each product's one variant, then made NOT NULL (below).
ALTER TABLE "cart_line" ADD COLUMN "variant_id" integer;--> statement-breakpoint
ALTER TABLE "product_price_history" ADD COLUMN "variant_id" integer;--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "options" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "price_min" integer;--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "price_max" integer;--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "in_stock" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sales_order_line" ADD COLUMN "variant_id" integer;--> statement-breakpoint
ALTER TABLE "sales_order_line" ADD COLUMN "options" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "product_variant" ADD CONSTRAINT "product_variant_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_variant_sku_key" ON "product_variant" USING btree ("sku");--> statement-breakpoint
CREATE UNIQUE INDEX "product_variant_options_key" ON "product_variant" USING btree ("product_id","options");--> statement-breakpoint
CREATE INDEX "product_variant_product_idx" ON "product_variant" USING btree ("product_id","position","id");--> statement-breakpoint
-- Data: one plain variant per existing product. Its price, weight and images stay null/empty,
-- which means "the product's", so the two can never disagree; sku, stock and the Omnibus
-- reference price are carried over, and so is the price history (as the variant's own).
INSERT INTO "product_variant" ("product_id", "sku", "options", "reference_price", "stock_qty", "created_at", "updated_at")
SELECT "id", "sku", '{}'::jsonb, "reference_price", "stock_qty", "created_at", "updated_at" FROM "product";
--> statement-breakpoint
INSERT INTO "product_price_history" ("product_id", "variant_id", "price", "valid_from")
SELECT h."product_id", v."id", h."price", h."valid_from"
FROM "product_price_history" h JOIN "product_variant" v ON v."product_id" = h."product_id"
WHERE h."variant_id" IS NULL
ORDER BY h."id";
--> statement-breakpoint
UPDATE "product" SET "in_stock" = "stock_qty" > 0, "price_min" = "price", "price_max" = "price";
--> statement-breakpoint
UPDATE "sales_order_line" l SET "variant_id" = v."id" FROM "product_variant" v WHERE v."product_id" = l."product_id";
--> statement-breakpoint
UPDATE "cart_line" c SET "variant_id" = v."id" FROM "product_variant" v WHERE v."product_id" = c."product_id";
--> statement-breakpoint
ALTER TABLE "cart_line" ALTER COLUMN "variant_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "cart_line" ADD CONSTRAINT "cart_line_variant_id_product_variant_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variant"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_price_history" ADD CONSTRAINT "product_price_history_variant_id_product_variant_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variant"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cart_line_variant_idx" ON "cart_line" USING btree ("variant_id");--> statement-breakpoint
CREATE INDEX "product_price_history_variant_idx" ON "product_price_history" USING btree ("variant_id","valid_from");--> statement-breakpoint
ALTER TABLE "cart_line" DROP CONSTRAINT "cart_line_pkey";
--> statement-breakpoint
ALTER TABLE "cart_line" ADD CONSTRAINT "cart_line_pkey" PRIMARY KEY("cart_id","variant_id");;
--> statement-breakpoint
-- The product's stock_qty, in_stock, price_min and price_max follow its variants in the same
-- transaction as any variant write (checkout's guarded UPDATE, a cancel, the API, plain SQL). The
-- product row is locked before the variants are summed: that statement's fresh snapshot then sees
-- every committed change of a sibling variant, so concurrent orders never write a stale sum.
CREATE FUNCTION product_variant_rollup(pid integer) RETURNS void LANGUAGE plpgsql AS $$
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
$$;
--> statement-breakpoint
CREATE FUNCTION product_variant_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM product_variant_rollup(OLD.product_id); END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.product_id <> OLD.product_id) THEN
    PERFORM product_variant_rollup(NEW.product_id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER product_variant_rollup AFTER INSERT OR DELETE OR UPDATE OF product_id, stock_qty, price, active
  ON product_variant FOR EACH ROW EXECUTE FUNCTION product_variant_changed();
--> statement-breakpoint
-- A product without options gets its plain variant when inserted, by whatever inserts it.
CREATE FUNCTION product_plain_variant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF jsonb_array_length(NEW.options) = 0 THEN
    INSERT INTO product_variant (product_id, sku, stock_qty) VALUES (NEW.id, NEW.sku, NEW.stock_qty);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER product_plain_variant AFTER INSERT ON product FOR EACH ROW EXECUTE FUNCTION product_plain_variant();
--> statement-breakpoint
-- A new product price moves the range of the variants that take the product's price.
CREATE FUNCTION product_price_range() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT min(coalesce(v.price, NEW.price)), max(coalesce(v.price, NEW.price))
    INTO NEW.price_min, NEW.price_max
    FROM product_variant v WHERE v.product_id = NEW.id AND v.active;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER product_price_range BEFORE UPDATE OF price ON product
  FOR EACH ROW WHEN (OLD.price IS DISTINCT FROM NEW.price) EXECUTE FUNCTION product_price_range();
--> statement-breakpoint
-- Stock or sku written on the product itself (depth 1: not the rollup of a variant write) goes to
-- its one variant; a product with several variants takes stock only on its variants.
CREATE FUNCTION product_to_plain_variant() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE n integer;
BEGIN
  IF pg_trigger_depth() <> 1 THEN RETURN NULL; END IF;
  SELECT count(*) INTO n FROM product_variant WHERE product_id = NEW.id;
  IF NEW.stock_qty IS DISTINCT FROM OLD.stock_qty THEN
    IF n <> 1 THEN
      RAISE EXCEPTION 'product % has % variants: write stock on its variants', NEW.id, n USING ERRCODE = 'check_violation';
    END IF;
    UPDATE product_variant SET stock_qty = NEW.stock_qty, updated_at = now() WHERE product_id = NEW.id;
  END IF;
  IF NEW.sku IS DISTINCT FROM OLD.sku AND jsonb_array_length(NEW.options) = 0 AND n = 1 THEN
    UPDATE product_variant SET sku = NEW.sku, updated_at = now() WHERE product_id = NEW.id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER product_to_plain_variant AFTER UPDATE OF stock_qty, sku ON product
  FOR EACH ROW EXECUTE FUNCTION product_to_plain_variant();
--> statement-breakpoint
-- One currency: the shop's setting `currency` (docs/catalog.md); products no longer keep their own.
ALTER TABLE "product" DROP COLUMN "currency";
