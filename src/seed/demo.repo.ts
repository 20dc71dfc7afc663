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
import { DEMO_ZONE_TRANSPORTS, insertDemoZones } from './demo-zones.ts';
import { DEMO_SALE_DEPARTMENT, insertDemoPromotions } from './demo-promotions.ts';
import { reels, sliderGroups, sliders } from '../modules/cms/cms.tables.ts';
import { addresses, wishlistItems } from '../modules/customers/address.tables.ts';
import { customers } from '../modules/customers/customer.tables.ts';
import { insertLedgerEntry } from '../modules/loyalty/loyalty.repo.ts';
import { settings } from '../modules/settings/settings.tables.ts';
import type { DemoProduct } from './demo-catalog.ts';
import { DEMO_CUSTOMER, type DemoShop } from './demo-shop.ts';
import { insertDemoImages } from './demo-images.ts';
import type { MediaRef } from '../modules/media/media-ref.ts';
import type { MediaStorage } from '../modules/media/storage/storage.ts';

/** The products' pictures (drawn before the transaction) and where their files go. */
export interface DemoImages {
  storage: MediaStorage;
  pictures: Buffer[];
}

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
  promotions: number;
}

/** Writes the demo shop; the caller owns the transaction. */
export async function insertDemoShop(
  tx: Db,
  shop: DemoShop,
  customerPasswordHash: string,
  now: Date,
  images?: DemoImages,
): Promise<SeedCounts> {
  const { departmentIds, leafIds } = await insertCategories(tx, shop);
  const media = images && (await insertDemoImages(tx, images.storage, shop.products, images.pictures));
  const productIds = await insertProducts(tx, shop.products, leafIds, media);
  await insertPriceHistory(tx, shop.products, productIds, now);
  await insertPromotionsAndContent(tx, shop, productIds);
  await insertDemoCustomer(tx, customerPasswordHash, productIds);
  const saleDepartment = shop.departments.findIndex((d) => d.name === DEMO_SALE_DEPARTMENT);
  const promotionCount = await insertDemoPromotions(tx, now, departmentIds[saleDepartment]);
  return {
    categories: departmentIds.length + leafIds.length,
    products: productIds.length,
    transports: shop.transports.length + DEMO_ZONE_TRANSPORTS,
    coupons: shop.coupons.length,
    reels: shop.reels.length,
    sliders: shop.sliders.length,
    promotions: promotionCount,
  };
}

async function insertCategories(tx: Db, shop: DemoShop) {
  const insert = (rows: (typeof categories.$inferInsert)[]) =>
    tx.insert(categories).values(rows).returning({ id: categories.id });
  const departmentIds = await insertIds(insert, shop.departments);
  // Second-level leaves first, then those a level further down (their parent's id known by then).
  const leafIds: number[] = [];
  for (const nested of [false, true]) {
    const indexes = shop.leaves.flatMap((l, i) => ((l.parentLeafIndex !== undefined) === nested ? [i] : []));
    const ids = await insertIds(
      insert,
      indexes.map((i) => {
        const { parentLeafIndex, departmentIndex, row } = shop.leaves[i];
        const parentId =
          parentLeafIndex === undefined ? departmentIds[departmentIndex] : leafIds[parentLeafIndex];
        return { ...row, parentId };
      }),
    );
    indexes.forEach((leaf, k) => {
      leafIds[leaf] = ids[k];
    });
  }
  return { departmentIds, leafIds };
}

/** The products in their leaves, and the variants of those with options; their ids in order. */
async function insertProducts(
  tx: Db,
  demoProducts: DemoProduct[],
  leafIds: number[],
  media: MediaRef[][] | undefined,
): Promise<number[]> {
  const productRows = demoProducts.map((p, i) => ({
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
    images: media ? media[i].map((m) => m.url) : p.images,
    media: media?.[i] ?? [],
    supplierCode: p.supplierCode,
    adminNotes: p.adminNotes,
    active: p.active,
    categoryId: leafIds[p.leafIndex],
    options: p.options,
    translations: p.translations,
  }));
  const productIds = await insertIds(
    (c) => tx.insert(products).values(c).returning({ id: products.id }),
    productRows,
  );
  // Products with options get their variants here (the database gives the others a plain one).
  const variantRows = demoProducts.flatMap((p, i) =>
    p.variants.map((v, position) => ({ ...v, productId: productIds[i], position })),
  );
  if (variantRows.length) await tx.insert(productVariants).values(variantRows);
  return productIds;
}

/**
 * The regular price since 60 days; products on sale got their sale price 3 days ago, so their
 * reference price (lowest of the 30 days before) is the regular price.
 */
async function insertPriceHistory(tx: Db, demoProducts: DemoProduct[], productIds: number[], now: Date) {
  const history = demoProducts.flatMap((p, i) => {
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
}

/** Shipping methods, coupons, the gift rule, reels and the home slider group. */
async function insertPromotionsAndContent(tx: Db, shop: DemoShop, productIds: number[]) {
  await tx.insert(transports).values(shop.transports);
  await insertDemoZones(tx);
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
