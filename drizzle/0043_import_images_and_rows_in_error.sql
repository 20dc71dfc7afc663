ALTER TABLE "media_asset" ADD COLUMN "source_url" text;--> statement-breakpoint
ALTER TABLE "import_job" ADD COLUMN "fetch_images" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "import_job" ADD COLUMN "rows_in_error" jsonb;--> statement-breakpoint
CREATE INDEX "media_asset_source_url_idx" ON "media_asset" USING btree ("source_url");