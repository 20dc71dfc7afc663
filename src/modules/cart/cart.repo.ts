import { catalogPriceSql } from '../catalog/sale-price.ts';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { products, productVariants } from '../catalog/catalog.tables.ts';
import { preparedRows, statement } from '../../db/statements.ts';
import type { CartOwner } from './cart-token.ts';
import { type CartRow, cartLines, carts } from './cart.tables.ts';

/** A cart line with the live variant and product it points at (price and weight are the effective ones). */
export interface CartLineRow {
  productId: number;
  variantId: number;
  qty: number;
  sku: string;
  name: string;
  slug: string;
  options: Record<string, string>;
  /** The variant's first image, else the product's. */
  image: string | null;
  price: number;
  vatRate: number;
  /** The product's tax class (destination VAT). */
  taxClass: string;
  weightKg: number;
  /** The variant and its product are both active. */
  active: boolean;
  /** Units on hand of the variant. */
  stockQty: number;
}

const cartByCustomer = statement('cart_by_customer', (db) =>
  db
    .select()
    .from(carts)
    .where(eq(carts.customerId, sql.placeholder('customerId')))
    .limit(1),
);
const cartByToken = statement('cart_by_token', (db) =>
  db
    .select()
    .from(carts)
    .where(eq(carts.tokenHash, sql.placeholder('tokenHash')))
    .limit(1),
);

export async function findCart(db: Db, owner: CartOwner): Promise<CartRow | undefined> {
  if (owner.kind === 'customer') return (await cartByCustomer(db, { customerId: owner.customerId }))[0];
  if (owner.tokenHash === null) return undefined;
  return (await cartByToken(db, { tokenHash: owner.tokenHash }))[0];
}

/**
 * The cart row locked FOR UPDATE: every write to one cart, and place-order, queue up here, so two
 * concurrent requests never see the same lines as both still there.
 */
export async function lockCart(db: Db, owner: CartOwner): Promise<CartRow | undefined> {
  if (owner.kind === 'guest' && owner.tokenHash === null) return undefined;
  // Plain SQL: every cart write and every order runs this first, and the query builder costs more
  // CPU than the lookup.
  const where =
    owner.kind === 'customer' ? sql`customer_id = ${owner.customerId}` : sql`token_hash = ${owner.tokenHash}`;
  const rows = await preparedRows<CartRow>(
    db,
    'cart_lock',
    sql`select id, token_hash as "tokenHash", customer_id as "customerId", coupon_code as "couponCode",
          created_at as "createdAt", updated_at as "updatedAt"
        from cart where ${where} limit 1 for update`,
  );
  return rows[0];
}

/**
 * Creates the cart and answers it (a new row is already locked by the inserting transaction), or
 * undefined when a concurrent first write of the same customer won: lock that one instead.
 */
export async function createCart(
  db: Db,
  owner: { customerId: number } | { tokenHash: string },
): Promise<CartRow | undefined> {
  const rows = await db
    .insert(carts)
    .values('customerId' in owner ? { customerId: owner.customerId } : { tokenHash: owner.tokenHash })
    .onConflictDoNothing()
    .returning();
  return rows[0];
}

/** A cart line's columns with its live variant's and product's: the shape of every cart read (CartLineRow). */
export const CART_LINE_FIELDS = {
  productId: cartLines.productId,
  variantId: cartLines.variantId,
  qty: cartLines.qty,
  sku: productVariants.sku,
  name: products.name,
  slug: products.slug,
  options: productVariants.options,
  image: sql<string | null>`coalesce(${productVariants.images}[1], ${products.images}[1])`,
  // The price a running catalog promotion gives, docs/promotions.md.
  price: catalogPriceSql(sql`coalesce(${productVariants.price}, ${products.price})`),
  vatRate: products.vatRate,
  taxClass: products.taxClass,
  weightKg: sql<number>`coalesce(${productVariants.weightKg}, ${products.weightKg})::float8`,
  active: sql<boolean>`(${productVariants.active} and ${products.active})`,
  stockQty: productVariants.stockQty,
};

const linesOfCart = statement('cart_lines', (db) =>
  db
    .select(CART_LINE_FIELDS)
    .from(cartLines)
    .innerJoin(productVariants, eq(productVariants.id, cartLines.variantId))
    .innerJoin(products, eq(products.id, cartLines.productId))
    .where(eq(cartLines.cartId, sql.placeholder('cartId')))
    .orderBy(asc(cartLines.addedAt), asc(cartLines.variantId)),
);

export function cartLinesWithProducts(db: Db, cartId: number): Promise<CartLineRow[]> {
  return linesOfCart(db, { cartId });
}

/** How many lines the cart has, and the variant's quantity in it (undefined when not there): one read. */
export async function lineStats(
  db: Db,
  cartId: number,
  variantId: number,
): Promise<{ lines: number; qty: number | undefined }> {
  const rows = await db
    .select({
      lines: sql<number>`count(*)::int`,
      qty: sql<number | null>`max(${cartLines.qty}) filter (where ${cartLines.variantId} = ${variantId})`,
    })
    .from(cartLines)
    .where(eq(cartLines.cartId, cartId));
  return { lines: rows[0]?.lines ?? 0, qty: rows[0]?.qty ?? undefined };
}

/** Sets a line's quantity, creating the line when missing. */
export async function putLine(
  db: Db,
  cartId: number,
  line: { productId: number; variantId: number },
  qty: number,
): Promise<void> {
  await db
    .insert(cartLines)
    .values({ cartId, productId: line.productId, variantId: line.variantId, qty })
    .onConflictDoUpdate({ target: [cartLines.cartId, cartLines.variantId], set: { qty } });
}

/** Lowers an existing line (no stock to check). */
export async function setLineQty(db: Db, cartId: number, variantId: number, qty: number): Promise<void> {
  await db
    .update(cartLines)
    .set({ qty })
    .where(and(eq(cartLines.cartId, cartId), eq(cartLines.variantId, variantId)));
}

export async function deleteLine(db: Db, cartId: number, variantId: number): Promise<void> {
  await db.delete(cartLines).where(and(eq(cartLines.cartId, cartId), eq(cartLines.variantId, variantId)));
}

export async function setCoupon(db: Db, cartId: number, code: string | null): Promise<void> {
  await db.update(carts).set({ couponCode: code, updatedAt: sql`now()` }).where(eq(carts.id, cartId));
}

/** Marks the cart as changed and answers it as it now is (for the answer of a cart write). */
export async function touchCart(db: Db, cartId: number): Promise<CartRow> {
  const [row] = await db.update(carts).set({ updatedAt: sql`now()` }).where(eq(carts.id, cartId)).returning();
  return row;
}

/**
 * Moves a guest cart's lines into the customer's cart, summing quantities (lowered to `maxQty`), in
 * one statement; lines over `maxLines` are dropped, newest first, rather than failing the login.
 */
export async function mergeLines(
  db: Db,
  fromCartId: number,
  intoCartId: number,
  { maxLines, maxQty }: { maxLines: number; maxQty: number },
): Promise<void> {
  await db.execute(sql`
    insert into cart_line (cart_id, product_id, variant_id, qty, added_at)
    select ${intoCartId}, g.product_id, g.variant_id, least(g.qty, ${maxQty}), g.added_at
    from cart_line g
    where g.cart_id = ${fromCartId}
      and (exists (select 1 from cart_line c where c.cart_id = ${intoCartId} and c.variant_id = g.variant_id)
        or g.variant_id in (
          select n.variant_id from cart_line n
          where n.cart_id = ${fromCartId}
            and not exists (select 1 from cart_line c where c.cart_id = ${intoCartId} and c.variant_id = n.variant_id)
          order by n.added_at, n.variant_id
          limit greatest(0, ${maxLines} - (select count(*) from cart_line c where c.cart_id = ${intoCartId}))))
    on conflict (cart_id, variant_id)
    do update set qty = least(cart_line.qty + excluded.qty, ${maxQty})`);
}

export async function deleteCart(db: Db, cartId: number): Promise<void> {
  await db.delete(carts).where(eq(carts.id, cartId));
}

/**
 * Empties a cart once its order is written, as two statements (its lines deleted, its coupon
 * cleared): fragments place-order runs inside its one statement (src/modules/checkout).
 */
export function emptyCartSql(cartId: number): { deleteLines: SQL; clearCoupon: SQL } {
  return {
    deleteLines: sql`delete from cart_line where cart_id = ${cartId}`,
    clearCoupon: sql`update cart set coupon_code = null where id = ${cartId} and coupon_code is not null`,
  };
}
