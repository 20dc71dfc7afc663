import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { categories, type ProductOption, products, productVariants } from '../catalog/catalog.tables.ts';
import type { MediaRef } from '../media/media-ref.ts';

// What an import compares a row with: the catalog's rows as stored (cents, ids), read by SKU.

export interface ShopProduct {
  id: number;
  sku: string;
  name: string;
  description: string;
  price: number;
  taxClass: string;
  active: boolean;
  weightKg: number;
  categoryId: number | null;
  images: string[];
  media: MediaRef[];
  options: ProductOption[];
  /** Texts per locale; a product's translated options are there too (not in the file's columns). */
  translations: Record<string, Record<string, unknown>>;
}

export interface ShopVariant {
  id: number;
  productId: number;
  sku: string;
  options: Record<string, string>;
  price: number | null;
  stockQty: number;
  weightKg: number | null;
  images: string[];
  media: MediaRef[];
  position: number;
  active: boolean;
}

const productColumns = {
  id: products.id,
  sku: products.sku,
  name: products.name,
  description: products.description,
  price: products.price,
  taxClass: products.taxClass,
  active: products.active,
  weightKg: products.weightKg,
  categoryId: products.categoryId,
  images: products.images,
  media: products.media,
  options: products.options,
  translations: products.translations,
};

const variantColumns = {
  id: productVariants.id,
  productId: productVariants.productId,
  sku: productVariants.sku,
  options: productVariants.options,
  price: productVariants.price,
  stockQty: productVariants.stockQty,
  weightKg: productVariants.weightKg,
  images: productVariants.images,
  media: productVariants.media,
  position: productVariants.position,
  active: productVariants.active,
};

export async function productBySku(db: Db, sku: string): Promise<ShopProduct | undefined> {
  const [row] = await db.select(productColumns).from(products).where(eq(products.sku, sku)).limit(1);
  return row;
}

export async function productsBySkus(db: Db, skus: readonly string[]): Promise<ShopProduct[]> {
  if (skus.length === 0) return [];
  return db.select(productColumns).from(products).where(inArray(products.sku, [...skus]));
}

/** Products by id, in id order (the export's page). */
export async function productsByIds(db: Db, ids: readonly number[]): Promise<ShopProduct[]> {
  return db.select(productColumns).from(products).where(inArray(products.id, [...ids])).orderBy(asc(products.id));
}

export async function productById(db: Db, id: number): Promise<ShopProduct | undefined> {
  const [row] = await db.select(productColumns).from(products).where(eq(products.id, id)).limit(1);
  return row;
}

export async function variantsBySku(db: Db, skus: readonly string[]): Promise<ShopVariant[]> {
  if (skus.length === 0) return [];
  return db.select(variantColumns).from(productVariants).where(inArray(productVariants.sku, [...skus]));
}

export async function variantsOfProduct(db: Db, productId: number): Promise<ShopVariant[]> {
  return db.select(variantColumns).from(productVariants).where(eq(productVariants.productId, productId));
}

/** The category of this name directly under `parentId` (null: a root category). */
export async function childCategory(db: Db, parentId: number | null, name: string): Promise<number | undefined> {
  const [row] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(
      and(
        parentId === null ? isNull(categories.parentId) : eq(categories.parentId, parentId),
        eq(categories.name, name),
      ),
    )
    .orderBy(categories.id)
    .limit(1);
  return row?.id;
}

/** The variants of these products by product, in their order (position, then id). */
export async function variantsOfProducts(db: Db, productIds: readonly number[]): Promise<Map<number, ShopVariant[]>> {
  const rows = await db
    .select(variantColumns)
    .from(productVariants)
    .where(inArray(productVariants.productId, [...productIds]))
    .orderBy(productVariants.productId, productVariants.position, productVariants.id);
  const byProduct = new Map<number, ShopVariant[]>();
  for (const v of rows) {
    const list = byProduct.get(v.productId);
    if (list) list.push(v);
    else byProduct.set(v.productId, [v]);
  }
  return byProduct;
}
