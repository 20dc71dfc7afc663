-- Promotions and the loyalty ledger sit below orders and customers in the module order
-- (docs/architecture.md): their order and customer columns become plain ids. Rows are written in
-- the transaction of the order they name; orders are never deleted.
ALTER TABLE "loyalty_ledger" DROP CONSTRAINT "loyalty_ledger_order_id_sales_order_id_fk";
--> statement-breakpoint
ALTER TABLE "coupon_redemption" DROP CONSTRAINT "coupon_redemption_order_id_sales_order_id_fk";
--> statement-breakpoint
ALTER TABLE "coupon_redemption" DROP CONSTRAINT "coupon_redemption_customer_id_customer_id_fk";
