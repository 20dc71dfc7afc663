import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../db/client.ts';
import {
  categories,
  productPriceHistory,
  products,
  productVariants,
} from '../modules/catalog/catalog.tables.ts';
import { coupons, gifts } from '../modules/promotions/promotions.tables.ts';
import { transports } from '../modules/shipping/shipping.tables.ts';
import { reels, sliderGroups, sliders } from '../modules/cms/cms.tables.ts';
import { addresses, wishlistItems } from '../modules/customers/address.tables.ts';
import { customers } from '../modules/customers/customer.tables.ts';
import { insertLedgerEntry } from '../modules/loyalty/loyalty.repo.ts';
import { settings } from '../modules/settings/settings.tables.ts';
import { DEMO_CUSTOMER, type DemoShop } from './demo-shop.ts';

/** Serialises demo seeding of instances starting at once on one empty PostgreSQL. */
const SEED_LOCK_ID = 72_002;
const DAY_MS = 86_400_000;

export async function countProducts(db: Db): Promise<number> {
  const rows = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from product`);
  return Number(rows[0].n);
}

export async function lockAndCountProducts(tx: Db): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_ID})`);
  return countProducts(tx);
}

/** Inserts rows in chunks (multi-row INSERTs) and returns their ids in order. */
async function insertIds<T extends Record<string, unknown>>(
  insert: (chunk: T[]) => Promise<{ id: number }[]>,
  rows: T[],
  chunk = 200,
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += chunk)
    ids.push(...(await insert(rows.slice(i, i + chunk))).map((r) => r.id));
  return ids;
}

export interface SeedCounts {
  categories: number;
  products: number;
  transports: number;
  coupons: number;
  reels: number;
  sliders: number;
}

/** Writes the demo shop; the caller owns the transaction. */
export async function insertDemoShop(
  tx: Db,
  shop: DemoShop,
  customerPasswordHash: string,
  now: Date,
): Promise<SeedCounts> {
  const departmentIds = await insertIds(
    (c) => tx.insert(categories).values(c).returning({ id: categories.id }),
    shop.departments,
  );
  // Second-level leaves first, then those a level further down (their parent's id known by then).
  const leafIds: number[] = [];
  for (const nested of [false, true]) {
    const indexes = shop.leaves.flatMap((l, i) => ((l.parentLeafIndex !== undefined) === nested ? [i] : []));
    const ids = await insertIds(
      (c) => tx.insert(categories).values(c).returning({ id: categories.id }),
      indexes.map((i) => {
        const l = shop.leaves[i];
        // biome-ignore lint/style/noNonNullAssertion: a nested leaf names its parent leaf
        const parentId = nested ? leafIds[l.parentLeafIndex!] : departmentIds[l.departmentIndex];
        return { ...l.row, parentId };
      }),
    );
    indexes.forEach((leaf, k) => {
      leafIds[leaf] = ids[k];
    });
  }
  const productRows = shop.products.map((p) => ({
    sku: p.sku,
    slug: p.slug,
    name: p.name,
    description: p.description,
    brand: p.brand,
    price: p.price,
    referencePrice: p.regularPrice,
    costPrice: p.costPrice,
    vatRate: p.vatRate,
    stockQty: p.stockQty,
    weightKg: p.weightKg,
    images: p.images,
    supplierCode: p.supplierCode,
    adminNotes: p.adminNotes,
    active: p.active,
    categoryId: leafIds[p.leafIndex],
    options: p.options,
  }));
  const productIds = await insertIds(
    (c) => tx.insert(products).values(c).returning({ id: products.id }),
    productRows,
  );
  // Products with options get their variants here (the database gives the others a plain one).
  const variantRows = shop.products.flatMap((p, i) =>
    p.variants.map((v, position) => ({ ...v, productId: productIds[i], position })),
  );
  if (variantRows.length) await tx.insert(productVariants).values(variantRows);

  // Price history: the regular price since 60 days; products on sale got their sale price 3 days
  // ago, so their reference price (lowest of the 30 days before) is the regular price.
  const history = shop.products.flatMap((p, i) => {
    const regular = {
      productId: productIds[i],
      price: p.regularPrice ?? p.price,
      validFrom: new Date(now.getTime() - 60 * DAY_MS),
    };
    if (p.regularPrice === null) return [regular];
    return [
      regular,
      { productId: productIds[i], price: p.price, validFrom: new Date(now.getTime() - 3 * DAY_MS) },
    ];
  });
  await insertIds(
    (c) => tx.insert(productPriceHistory).values(c).returning({ id: productPriceHistory.id }),
    history,
    500,
  );

  await tx.insert(transports).values(shop.transports);
  await tx.insert(coupons).values(shop.coupons);
  const { productIndexes, ...giftRule } = shop.giftRule;
  await tx.insert(gifts).values({ ...giftRule, productIds: productIndexes.map((i) => productIds[i]) });
  await tx
    .insert(reels)
    .values(shop.reels.map((r) => ({ ...r.row, productIds: r.productIndexes.map((i) => productIds[i]) })));
  const [group] = await tx.insert(sliderGroups).values(shop.sliderGroup).returning({ id: sliderGroups.id });
  await tx.insert(sliders).values(shop.sliders.map((s) => ({ ...s, groupId: group.id })));
  if (group.id !== 1) {
    // The registry's default hero group is 1; point it at the demo group when ids moved on.
    await tx
      .insert(settings)
      .values({ key: 'home_hero_slider_group_id', value: group.id })
      .onConflictDoNothing({ target: settings.key });
  }
  await insertDemoCustomer(tx, customerPasswordHash, productIds);
  return {
    categories: departmentIds.length + leafIds.length,
    products: productIds.length,
    transports: shop.transports.length,
    coupons: shop.coupons.length,
    reels: shop.reels.length,
    sliders: shop.sliders.length,
  };
}

const DEMO_POINTS = DEMO_CUSTOMER.loyaltyPoints;

async function insertDemoCustomer(tx: Db, passwordHash: string, productIds: number[]): Promise<void> {
  const [customer] = await tx
    .insert(customers)
    .values({
      email: 'demo@example.com',
      passwordHash,
      firstName: 'Dana',
      lastName: 'Demo',
      phone: '+40 700 000 000',
      newsletter: true,
      loyaltyPoints: DEMO_POINTS,
    })
    .onConflictDoNothing()
    .returning({ id: customers.id });
  if (!customer) return;
  // A balance is explained by its ledger, the demo's opening balance too (docs/checkout.md).
  await insertLedgerEntry(tx, {
    customerId: customer.id,
    delta: DEMO_POINTS,
    reason: 'admin_adjustment',
    note: 'Demo shop: opening balance',
  });
  await tx.insert(addresses).values({
    customerId: customer.id,
    label: 'Home',
    firstName: 'Dana',
    lastName: 'Demo',
    phone: '+40 700 000 000',
    street: 'Strada Exemplu 1',
    city: 'Bucharest',
    countyAlpha: 'B',
    countryAlpha2: 'RO',
    postalCode: '010011',
    isDefault: true,
  });
  await tx.insert(wishlistItems).values(
    [productIds[0], productIds[5], productIds[42]].map((productId) => ({
      customerId: customer.id,
      productId,
    })),
  );
}
