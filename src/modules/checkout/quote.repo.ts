import { asc, eq, getTableColumns, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import type { CartLineRow } from '../cart/cart.repo.ts';
import type { CartOwner } from '../cart/cart-token.ts';
import { cartLines, carts } from '../cart/cart.tables.ts';
import { products } from '../catalog/catalog.tables.ts';
import { coupons } from '../catalog/promotions.tables.ts';
import { transports } from '../catalog/shipping.tables.ts';
import { customers } from '../customers/customer.tables.ts';
import { type StoredSetting, storedSettingsJson } from '../settings/settings.repo.ts';
import type { CouponRow, CustomerStanding, TransportRow } from './checkout.repo.ts';
import { reusableQuery } from '../../db/reusable-query.ts';

// The totals endpoint's reads in ONE round trip: the cart, the coupon its code names, every line with
// its live product, the chosen transport, the stored settings and, for a customer, the points balance.
// A checkout page asks for totals on every change, so this read is the hot path.

export interface CartSnapshot {
  cart: { id: number; couponCode: string | null } | undefined;
  /** The coupon the cart's code names, when one exists (validity is judged by the caller). */
  coupon: CouponRow | undefined;
  lines: CartLineRow[];
}

export interface QuoteRead {
  snapshot: CartSnapshot;
  /** Only for a customer query: the account's e-mail, points and status. */
  customer: CustomerStanding | undefined;
  /** The transport row the body named, when it exists (active or not). */
  transport: TransportRow | undefined;
  /** The stored settings rows, for mergeSettings. */
  settings: StoredSetting[];
}

const EMPTY_SNAPSHOT: CartSnapshot = { cart: undefined, coupon: undefined, lines: [] };

/** Every column but the customer's; the settings come as one JSON array (an InitPlan, computed once). */
const quoteFields = {
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
  transport: getTableColumns(transports),
  settings: storedSettingsJson(),
};

const byCustomer = reusableQuery('quote_read_by_customer', (db) =>
  db
    .select({
      ...quoteFields,
      customer: { email: customers.email, loyaltyPoints: customers.loyaltyPoints, active: customers.active },
    })
    .from(customers)
    .leftJoin(carts, eq(carts.customerId, customers.id))
    .leftJoin(coupons, sql`lower(${coupons.code}) = lower(${carts.couponCode})`)
    .leftJoin(cartLines, eq(cartLines.cartId, carts.id))
    .leftJoin(products, eq(products.id, cartLines.productId))
    .leftJoin(transports, eq(transports.id, sql.placeholder('transportId')))
    .where(eq(customers.id, sql.placeholder('customerId')))
    .orderBy(asc(cartLines.addedAt), asc(cartLines.productId)),
);

const byToken = reusableQuery('quote_read_by_token', (db) =>
  db
    .select(quoteFields)
    .from(carts)
    .leftJoin(coupons, sql`lower(${coupons.code}) = lower(${carts.couponCode})`)
    .leftJoin(cartLines, eq(cartLines.cartId, carts.id))
    .leftJoin(products, eq(products.id, cartLines.productId))
    .leftJoin(transports, eq(transports.id, sql.placeholder('transportId')))
    .where(eq(carts.tokenHash, sql.placeholder('tokenHash')))
    .orderBy(asc(cartLines.addedAt), asc(cartLines.productId)),
);

type QuoteRow = Omit<Awaited<ReturnType<typeof byCustomer>>[number], 'customer'> & {
  customer?: CustomerStanding | null;
};

function readOf(rows: QuoteRow[]): QuoteRead | undefined {
  const first = rows[0];
  if (!first) return undefined;
  const lines: CartLineRow[] = [];
  // A cart without lines (or a customer without a cart) still answers one row, line columns null.
  for (const row of rows) if (row.line?.productId != null) lines.push(row.line as CartLineRow);
  const snapshot: CartSnapshot =
    first.cartId === null
      ? EMPTY_SNAPSHOT
      : {
          cart: { id: first.cartId, couponCode: first.couponCode },
          coupon: first.coupon ?? undefined,
          lines,
        };
  return {
    snapshot,
    customer: first.customer ?? undefined,
    transport: first.transport ?? undefined,
    settings: first.settings,
  };
}

/**
 * The totals endpoint's read (not for place-order, which locks the cart first). Undefined when it
 * found no row: a guest without a cart, or a customer whose account is gone; the caller then reads
 * transport and settings on their own.
 */
export async function quoteRead(
  db: Db,
  owner: CartOwner,
  transportId: number | null,
): Promise<QuoteRead | undefined> {
  if (owner.kind === 'guest' && owner.tokenHash === null) return undefined;
  const rows: QuoteRow[] =
    owner.kind === 'customer'
      ? await byCustomer(db, { customerId: owner.customerId, transportId })
      : await byToken(db, { tokenHash: owner.tokenHash, transportId });
  return readOf(rows);
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

const transportAndSettings = reusableQuery('quote_reference', (db) =>
  db
    .select({ transport: getTableColumns(transports), settings: quoteFields.settings })
    .from(sql`(values (1)) as one (x)`)
    .leftJoin(transports, eq(transports.id, sql.placeholder('transportId'))),
);

/**
 * The transport a body names (undefined when none or unknown) and the stored settings rows, in one
 * round trip: place-order reads them before its transaction, the totals endpoint when it finds no cart.
 */
export async function readTransportAndSettings(
  db: Db,
  transportId: number | undefined,
): Promise<{ transport: TransportRow | undefined; settings: StoredSetting[] }> {
  const [row] = await transportAndSettings(db, { transportId: transportId ?? null });
  return { transport: row.transport ?? undefined, settings: row.settings };
}
