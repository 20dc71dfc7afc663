-- Variant ids come from the product id sequence, and a plain variant (a product without options)
-- takes its product's own id. So one id never names two things: `PATCH /rest/cart/items/{id}` and
-- an order line read the same whether a client sends the product id of a single-variant product
-- or its variant id, and a real variant's id is never a product's.
ALTER TABLE "cart_line" DROP CONSTRAINT "cart_line_variant_id_product_variant_id_fk";
--> statement-breakpoint
ALTER TABLE "product_price_history" DROP CONSTRAINT "product_price_history_variant_id_product_variant_id_fk";
--> statement-breakpoint
CREATE TABLE "variant_id_map" AS
SELECT v."id" AS "old_id",
       CASE WHEN jsonb_array_length(p."options") = 0 THEN v."product_id" ELSE nextval('product_id_seq') END AS "new_id"
FROM "product_variant" v JOIN "product" p ON p."id" = v."product_id"
ORDER BY v."id";
--> statement-breakpoint
UPDATE "product_variant" SET "id" = -"id";
--> statement-breakpoint
UPDATE "product_variant" v SET "id" = m."new_id" FROM "variant_id_map" m WHERE v."id" = -m."old_id";
--> statement-breakpoint
UPDATE "cart_line" c SET "variant_id" = m."new_id" FROM "variant_id_map" m WHERE c."variant_id" = m."old_id";
--> statement-breakpoint
UPDATE "product_price_history" h SET "variant_id" = m."new_id" FROM "variant_id_map" m WHERE h."variant_id" = m."old_id";
--> statement-breakpoint
UPDATE "sales_order_line" l SET "variant_id" = m."new_id" FROM "variant_id_map" m WHERE l."variant_id" = m."old_id";
--> statement-breakpoint
DROP TABLE "variant_id_map";
--> statement-breakpoint
ALTER TABLE "product_variant" ALTER COLUMN "id" SET DEFAULT nextval('product_id_seq');
--> statement-breakpoint
DROP SEQUENCE "product_variant_id_seq";
--> statement-breakpoint
ALTER TABLE "cart_line" ADD CONSTRAINT "cart_line_variant_id_product_variant_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variant"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "product_price_history" ADD CONSTRAINT "product_price_history_variant_id_product_variant_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variant"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION product_plain_variant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF jsonb_array_length(NEW.options) = 0 THEN
    INSERT INTO product_variant (id, product_id, sku, stock_qty) VALUES (NEW.id, NEW.id, NEW.sku, NEW.stock_qty);
  END IF;
  RETURN NULL;
END
$$;
