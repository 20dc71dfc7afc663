ALTER TABLE "customer" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "sales_order" ADD COLUMN "locale" text;