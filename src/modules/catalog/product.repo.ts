import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { statement } from '../../db/statements.ts';
import { products } from './catalog.tables.ts';

/** What the cart, the quote and place-order need of a product. */
export interface ProductRef {
  id: number;
  sku: string;
  name: string;
  price: number;
  vatRate: number;
  weightKg: number;
  active: boolean;
}

const productRef = {
  id: products.id,
  sku: products.sku,
  name: products.name,
  price: products.price,
  vatRate: products.vatRate,
  weightKg: products.weightKg,
  active: products.active,
};

const productById = statement('product_ref', (db) =>
  db
    .select(productRef)
    .from(products)
    .where(eq(products.id, sql.placeholder('id')))
    .limit(1),
);

export async function findProduct(db: Db, id: number): Promise<ProductRef | undefined> {
  return (await productById(db, { id }))[0];
}

export async function findProducts(db: Db, ids: readonly number[]): Promise<ProductRef[]> {
  if (ids.length === 0) return [];
  return db
    .select(productRef)
    .from(products)
    .where(inArray(products.id, [...ids]));
}
