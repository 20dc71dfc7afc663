import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { ONE_ROW, statement } from '../../db/statements.ts';
import { CART_LINE_FIELDS, type CartLineRow } from '../cart/cart.repo.ts';
import type { CartOwner } from '../cart/cart-token.ts';
import { cartLines, carts } from '../cart/cart.tables.ts';
import { products, productVariants } from '../catalog/catalog.tables.ts';
import { coupons } from '../promotions/promotions.tables.ts';
import { transports } from '../shipping/shipping.tables.ts';
import { customers } from '../customers/customer.tables.ts';
import { keptVersionsJson, runningAt } from '../../resources/index.ts';
import { type StoredSetting, storedSettingsJson } from '../settings/settings.repo.ts';
import type { CouponRow } from '../promotions/promotions.repo.ts';
import type { RunningCartPromotion } from '../promotions/promotion.repo.ts';
import { activeCartPromotions } from '../promotions/cart-promotions.ts';
import { activeCatalogSales } from '../catalog/catalog-sales.ts';
import { categoryPaths, pathOf } from '../catalog/category-paths.ts';
import { salePrice } from '../pricing/catalog-sale.ts';
import type { CustomerStanding, TransportRow } from './checkout.repo.ts';
import { countryTaxRatesJson, transportRatesJson } from '../shipping/rates.repo.ts';
import type { DestinationReads } from './quote-destination.ts';

// The totals endpoint's reads in ONE round trip: the cart, the coupon its code names, every line with
// its live product, the chosen transport with its zone rates, the destination's VAT rates, the stored
// settings, for a customer the points balance, and the versions of what the quote keeps between
// requests (the cart promotions, the catalog sales, the category tree: a second round trip only
// after one of them changed). A checkout page asks for totals on every change, so this read is the hot path.

export interface CartSnapshot {
  cart: { id: number; couponCode: string | null } | undefined;
  /** The coupon the cart's code names, when one exists (validity is judged by the caller). */
  coupon: CouponRow | undefined;
  lines: PromotableLine[];
  /** The cart promotions running at the quote's time. */
  cartPromotions: RunningCartPromotion[];
}

/** A cart line with what promotions' conditions read of its product. */
export interface PromotableLine extends CartLineRow {
  brand: string | null;
  categoryPath: number[];
}

/** A line as the statement answers it: the stored price, the product's category. */
interface StoredLine extends CartLineRow {
  brand: string | null;
  categoryId: number | null;
}

export interface QuoteRead {
  snapshot: CartSnapshot;
  /** Only for a customer query: the account's e-mail, points and status. */
  customer: CustomerStanding | undefined;
  /** The transport row the body named, when it exists (active or not). */
  transport: TransportRow | undefined;
  /** The stored settings rows, for mergeSettings. */
  settings: StoredSetting[];
  /** The transport's zone rates and the destination country's VAT rates. */
  destination: DestinationReads;
}

const EMPTY_SNAPSHOT: CartSnapshot = { cart: undefined, coupon: undefined, lines: [], cartPromotions: [] };

/**
 * A cart line's fields (CART_LINE_FIELDS) with its stored price, and what catalog sales and cart
 * promotions' conditions read of its product: the sales and the category paths are applied from
 * kept copies (snapshotOf).
 */
const lineFields = {
  ...CART_LINE_FIELDS,
  price: sql<number>`coalesce(${productVariants.price}, ${products.price})`,
  brand: products.brand,
  categoryId: products.categoryId,
};
const LINE_KEYS = Object.keys(lineFields) as (keyof StoredLine)[];

/**
 * The cart's lines, in the order they were added, as one JSON array of arrays (the values of
 * LINE_KEYS in order: keys of 5 lines cost the statement more than their values). The statement
 * answers one row per cart: a row per line, with some 60 columns each, cost the service more to
 * map (drizzle and the driver, about 190 µs a 5-line quote) than the rest of the quote.
 */
const cartLinesJson = sql<
  unknown[][]
>`(select coalesce(json_agg(json_build_array(${sql.join(Object.values(lineFields), sql`, `)})
    order by ${cartLines.addedAt}, ${cartLines.variantId}), '[]'::json)
  from ${cartLines}
  join ${productVariants} on ${productVariants.id} = ${cartLines.variantId}
  join ${products} on ${products.id} = ${cartLines.productId}
  where ${cartLines.cartId} = ${carts.id})`;

/** A line of cartLinesJson as an object. */
function lineOf(values: unknown[]): StoredLine & PromotableLine {
  const line: Record<string, unknown> = {};
  for (let i = 0; i < LINE_KEYS.length; i++) line[LINE_KEYS[i]] = values[i];
  return line as unknown as StoredLine & PromotableLine;
}

/** The cart snapshot's columns: the cart, the coupon its code names, its lines with their live variants and products. */
const snapshotFields = {
  cartId: carts.id,
  couponCode: carts.couponCode,
  coupon: getTableColumns(coupons),
  lines: cartLinesJson,
  // The versions of what the quote keeps between requests (KeptCopy): its rows are read only when they move.
  keptVersions: keptVersionsJson([activeCartPromotions, activeCatalogSales, categoryPaths]),
};

/**
 * The cart snapshot: the one read every quote of a whole cart makes (the totals quote, place-order),
 * on a query that already selects from `cart`: one row.
 */
function withCartContents<T extends PgSelect>(query: T) {
  return query.leftJoin(coupons, sql`lower(${coupons.code}) = lower(${carts.couponCode})`);
}

/** The snapshot and, for the quote, the transport and the stored settings (one JSON array). */
const destinationFields = {
  rates: transportRatesJson(sql.placeholder('transportId')),
  taxRates: countryTaxRatesJson(sql.placeholder('country')),
};
const quoteFields = {
  ...snapshotFields,
  transport: getTableColumns(transports),
  settings: storedSettingsJson(),
  ...destinationFields,
};

const byCustomer = statement('quote_read_by_customer', (db) =>
  withCartContents(
    db
      .select({
        ...quoteFields,
        customer: {
          email: customers.email,
          loyaltyPoints: customers.loyaltyPoints,
          active: customers.active,
        },
      })
      .from(customers)
      .leftJoin(carts, eq(carts.customerId, customers.id))
      .leftJoin(transports, eq(transports.id, sql.placeholder('transportId')))
      .where(eq(customers.id, sql.placeholder('customerId')))
      .$dynamic(),
  ),
);

const byToken = statement('quote_read_by_token', (db) =>
  withCartContents(
    db
      .select(quoteFields)
      .from(carts)
      .leftJoin(transports, eq(transports.id, sql.placeholder('transportId')))
      .where(eq(carts.tokenHash, sql.placeholder('tokenHash')))
      .$dynamic(),
  ),
);

/** The snapshot alone, for place-order's transaction (the cart row is already locked). */
const snapshotOfCustomer = statement('cart_snapshot_by_customer', (db) =>
  withCartContents(
    db
      .select(snapshotFields)
      .from(carts)
      .where(eq(carts.customerId, sql.placeholder('customerId')))
      .$dynamic(),
  ),
);
const snapshotOfToken = statement('cart_snapshot_by_token', (db) =>
  withCartContents(
    db
      .select(snapshotFields)
      .from(carts)
      .where(eq(carts.tokenHash, sql.placeholder('tokenHash')))
      .$dynamic(),
  ),
);

type QuoteRow = Omit<Awaited<ReturnType<typeof byCustomer>>[number], 'customer'> & {
  customer?: CustomerStanding | null;
};
type SnapshotRow = Pick<QuoteRow, keyof typeof snapshotFields>;

/** Where the kept copies live (the pool) and where a missing one is read (the pool, or a transaction). */
interface KeptAt {
  keepOn: Db;
  readOn: Db;
}

/**
 * The snapshot at `now`: each line at its price under the sales running then, with its category
 * path, and the cart promotions running then.
 */
async function snapshotOf(rows: SnapshotRow[], at: KeptAt, now: Date): Promise<CartSnapshot> {
  const first = rows[0];
  if (!first || first.cartId === null) return EMPTY_SNAPSHOT;
  const { keepOn, readOn } = at;
  const versions = first.keptVersions;
  // Kept, as nearly always: no promise to wait for.
  const sales =
    activeCatalogSales.keptAt(keepOn, versions) ??
    (await activeCatalogSales.copyAt(keepOn, readOn, versions));
  const paths =
    categoryPaths.keptAt(keepOn, versions) ?? (await categoryPaths.copyAt(keepOn, readOn, versions));
  const promotions =
    activeCartPromotions.keptAt(keepOn, versions) ??
    (await activeCartPromotions.copyAt(keepOn, readOn, versions));
  const running = runningAt(sales, now);
  const lines = first.lines.map(lineOf);
  for (const line of lines) {
    if (running.length > 0) line.price = salePrice(line.price, line, running);
    line.categoryPath = pathOf(paths, line.categoryId);
  }
  return {
    cart: { id: first.cartId, couponCode: first.couponCode },
    coupon: first.coupon ?? undefined,
    lines,
    cartPromotions: runningAt(promotions, now),
  };
}

async function readOf(rows: QuoteRow[], db: Db, now: Date): Promise<QuoteRead | undefined> {
  const first = rows[0];
  if (!first) return undefined;
  return {
    snapshot: await snapshotOf(rows, { keepOn: db, readOn: db }, now),
    customer: first.customer ?? undefined,
    transport: first.transport ?? undefined,
    settings: first.settings,
    destination: { rates: first.rates, taxRates: first.taxRates },
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
  country: string | null,
  now: Date,
): Promise<QuoteRead | undefined> {
  if (owner.kind === 'guest' && owner.tokenHash === null) return undefined;
  const rows: QuoteRow[] =
    owner.kind === 'customer'
      ? await byCustomer(db, { customerId: owner.customerId, transportId, country })
      : await byToken(db, { tokenHash: owner.tokenHash, transportId, country });
  return readOf(rows, db, now);
}

/**
 * The cart snapshot inside place-order's transaction, after the cart row was locked: the copies kept
 * on `pool` serve when they are of the versions the transaction sees, else it reads its own.
 */
export async function cartSnapshot(tx: Db, pool: Db, owner: CartOwner, now: Date): Promise<CartSnapshot> {
  const at = { keepOn: pool, readOn: tx };
  if (owner.kind === 'customer')
    return snapshotOf(await snapshotOfCustomer(tx, { customerId: owner.customerId }), at, now);
  if (owner.tokenHash === null) return EMPTY_SNAPSHOT;
  return snapshotOf(await snapshotOfToken(tx, { tokenHash: owner.tokenHash }), at, now);
}

const transportAndSettings = statement('quote_reference', (db) =>
  db
    .select({ transport: getTableColumns(transports), settings: storedSettingsJson(), ...destinationFields })
    .from(ONE_ROW)
    .leftJoin(transports, eq(transports.id, sql.placeholder('transportId'))),
);

/**
 * The transport a body names (undefined when none or unknown) and the stored settings rows, in one
 * round trip: place-order reads them before its transaction, the totals endpoint when it finds no cart.
 */
export async function readTransportAndSettings(
  db: Db,
  transportId: number | undefined,
  country: string | undefined,
): Promise<{
  transport: TransportRow | undefined;
  settings: StoredSetting[];
  destination: DestinationReads;
}> {
  const [row] = await transportAndSettings(db, {
    transportId: transportId ?? null,
    country: country ?? null,
  });
  return {
    transport: row.transport ?? undefined,
    settings: row.settings,
    destination: { rates: row.rates, taxRates: row.taxRates },
  };
}
