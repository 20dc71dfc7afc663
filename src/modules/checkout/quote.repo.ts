import { asc, eq, getTableColumns, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import type { CartLineRow } from '../cart/cart.repo.ts';
import type { CartOwner } from '../cart/cart-token.ts';
import { cartLines, carts } from '../cart/cart.tables.ts';
import { products } from '../catalog/catalog.tables.ts';
import { coupons } from '../catalog/promotions.tables.ts';
import { settings } from '../settings/settings.tables.ts';
import type { CouponRow } from './checkout.repo.ts';
import { reusableQuery } from './reusable-query.ts';

// The quote's cart in ONE round trip: the cart, the coupon its code names and every line with its
// live product. A checkout page asks for totals on every change, so this read is the hot path.

export interface CartSnapshot {
  cart: { id: number; couponCode: string | null } | undefined;
  /** The coupon the cart's code names, when one exists (validity is judged by the caller). */
  coupon: CouponRow | undefined;
  lines: CartLineRow[];
}

const snapshotQuery = (db: Db, owner: 'customer' | 'guest') =>
  db
    .select({
      cartId: carts.id,
      couponCode: carts.couponCode,
      coupon: getTableColumns(coupons),
      line: {
        productId: cartLines.productId,
        qty: cartLines.qty,
        sku: products.sku,
        name: products.name,
        price: products.price,
        vatRate: products.vatRate,
        weightKg: products.weightKg,
        active: products.active,
      },
    })
    .from(carts)
    .leftJoin(coupons, sql`lower(${coupons.code}) = lower(${carts.couponCode})`)
    .leftJoin(cartLines, eq(cartLines.cartId, carts.id))
    .leftJoin(products, eq(products.id, cartLines.productId))
    .where(
      owner === 'customer'
        ? eq(carts.customerId, sql.placeholder('customerId'))
        : eq(carts.tokenHash, sql.placeholder('tokenHash')),
    )
    .orderBy(asc(cartLines.addedAt), asc(cartLines.productId));

const byCustomer = reusableQuery('quote_cart_by_customer', (db) => snapshotQuery(db, 'customer'));
const byToken = reusableQuery('quote_cart_by_token', (db) => snapshotQuery(db, 'guest'));

/**
 * Place-order locks the cart row with a statement of its own BEFORE this read. Locking here instead
 * (FOR UPDATE OF cart on this join) would be wrong under READ COMMITTED: after waiting for the lock,
 * PostgreSQL re-checks the cart row but keeps the cart_line rows of the old snapshot, so a second
 * order would see the lines the first one just ordered (the concurrency test catches exactly that).
 */
export async function cartSnapshot(db: Db, owner: CartOwner): Promise<CartSnapshot> {
  if (owner.kind === 'guest' && owner.tokenHash === null)
    return { cart: undefined, coupon: undefined, lines: [] };
  const rows =
    owner.kind === 'customer'
      ? await byCustomer(db, { customerId: owner.customerId })
      : await byToken(db, { tokenHash: owner.tokenHash });
  const first = rows[0];
  if (!first) return { cart: undefined, coupon: undefined, lines: [] };
  const lines: CartLineRow[] = [];
  // An empty cart still answers one row, with every line column null.
  for (const row of rows) if (row.line && row.line.productId !== null) lines.push(row.line as CartLineRow);
  return {
    cart: { id: first.cartId, couponCode: first.couponCode },
    coupon: first.coupon ?? undefined,
    lines,
  };
}

interface FlatSnapshotRow {
  cartId: number;
  couponCode: string | null;
  kId: number | null;
  kCode: string;
  kType: 'percent' | 'fixed';
  kValue: number;
  kMinSubtotal: number;
  kStartsAt: Date | string | null;
  kEndsAt: Date | string | null;
  kUsageLimit: number | null;
  kPerCustomerLimit: number | null;
  kUsedCount: number;
  kActive: boolean;
  kCreatedAt: Date | string;
  kUpdatedAt: Date | string;
  productId: number | null;
  qty: number;
  sku: string;
  name: string;
  price: number;
  vatRate: number;
  weightKg: number;
  active: boolean;
}

const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/**
 * The same read as cartSnapshot in plain SQL, for place-order's transaction: a prepared query cannot
 * run on a transaction, and building this join with the query builder costs more CPU than the database
 * spends answering it. Numerics are cast to float8 so both engines answer JS numbers.
 */
export async function cartSnapshotInTransaction(tx: Db, owner: CartOwner): Promise<CartSnapshot> {
  if (owner.kind === 'guest' && owner.tokenHash === null)
    return { cart: undefined, coupon: undefined, lines: [] };
  const where =
    owner.kind === 'customer'
      ? sql`c.customer_id = ${owner.customerId}`
      : sql`c.token_hash = ${owner.tokenHash}`;
  const rows = await queryRows<FlatSnapshotRow>(
    tx,
    sql`select c.id as "cartId", c.coupon_code as "couponCode",
        k.id as "kId", k.code as "kCode", k.type as "kType", k.value as "kValue", k.min_subtotal as "kMinSubtotal",
        k.starts_at as "kStartsAt", k.ends_at as "kEndsAt", k.usage_limit as "kUsageLimit",
        k.per_customer_limit as "kPerCustomerLimit", k.used_count as "kUsedCount", k.active as "kActive",
        k.created_at as "kCreatedAt", k.updated_at as "kUpdatedAt",
        l.product_id as "productId", l.qty, p.sku, p.name, p.price,
        p.vat_rate::float8 as "vatRate", p.weight_kg::float8 as "weightKg", p.active
      from cart c
      left join coupon k on lower(k.code) = lower(c.coupon_code)
      left join cart_line l on l.cart_id = c.id
      left join product p on p.id = l.product_id
      where ${where}
      order by l.added_at, l.product_id`,
  );
  const first = rows[0];
  if (!first) return { cart: undefined, coupon: undefined, lines: [] };
  const coupon: CouponRow | undefined =
    first.kId === null
      ? undefined
      : {
          id: first.kId,
          code: first.kCode,
          type: first.kType,
          value: first.kValue,
          minSubtotal: first.kMinSubtotal,
          startsAt: first.kStartsAt === null ? null : asDate(first.kStartsAt),
          endsAt: first.kEndsAt === null ? null : asDate(first.kEndsAt),
          usageLimit: first.kUsageLimit,
          perCustomerLimit: first.kPerCustomerLimit,
          usedCount: first.kUsedCount,
          active: first.kActive,
          createdAt: asDate(first.kCreatedAt),
          updatedAt: asDate(first.kUpdatedAt),
        };
  const lines: CartLineRow[] = rows
    .filter((r) => r.productId !== null)
    .map(({ productId, qty, sku, name, price, vatRate, weightKg, active }) => ({
      productId: productId as number,
      qty,
      sku,
      name,
      price,
      vatRate,
      weightKg,
      active,
    }));
  return { cart: { id: first.cartId, couponCode: first.couponCode }, coupon, lines };
}

const storedSettings = reusableQuery('quote_settings', (db) =>
  db.select({ key: settings.key, value: settings.value }).from(settings),
);

/** The stored settings rows (a few dozen at most), for mergeSettings of the settings module. */
export function readStoredSettingsFast(db: Db): Promise<{ key: string; value: unknown }[]> {
  return storedSettings(db, {});
}
