import { type Config, demoShopAllowed } from '../config.ts';
import type { Db } from '../db/client.ts';
import { hashPassword } from '../modules/auth/passwords.ts';
import { DEMO_CUSTOMER, demoShop } from './demo-shop.ts';
import type { MediaStorage } from '../modules/media/storage/storage.ts';
import { demoPictures } from './demo-images.ts';
import { countProducts, insertDemoShop, lockAndCountProducts, type SeedCounts } from './demo.repo.ts';

export type SeedResult = { seeded: true; counts: SeedCounts } | { seeded: false; products: number };

/**
 * Loads the demo shop into an empty catalog, in one transaction, with a picture per product
 * when given the media storage; does nothing when products exist (an advisory lock keeps two starting instances from both seeding).
 */
export async function seedDemoShop(db: Db, now = new Date(), storage?: MediaStorage): Promise<SeedResult> {
  const products = await countProducts(db);
  if (products > 0) return { seeded: false, products };
  const passwordHash = await hashPassword(DEMO_CUSTOMER.password);
  const shop = demoShop(now);
  // Drawn before the transaction: it holds no lock while the pictures are made.
  const images = storage && { storage, pictures: await demoPictures(shop.products) };
  return db.transaction(async (tx) => {
    const existing = await lockAndCountProducts(tx);
    if (existing > 0) return { seeded: false, products: existing };
    const counts = await insertDemoShop(tx, shop, passwordHash, now, images);
    return { seeded: true, counts };
  });
}

/** The short block printed after seeding: where to log in with what. */
export function demoLogins(config: Config, counts: SeedCounts): string {
  const admins = config.staticUsers
    .filter((u) => u.password)
    .map((u) => `  admin     ${u.username} / ${u.password}   (POST /rest/auth/admin/login)`);
  return [
    `Demo shop loaded: ${counts.products} products in ${counts.categories} categories, ${counts.transports} shipping methods, ${counts.coupons} coupons, ${counts.reels} reels, ${counts.sliders} sliders, ${counts.promotions} promotions.`,
    ...admins,
    `  customer  ${DEMO_CUSTOMER.email} / ${DEMO_CUSTOMER.password}   (POST /rest/auth/customer/login)`,
    '  coupons   WELCOME10 (10 %), SAVE20 (20.00 off from 100.00)',
  ].join('\n');
}

/**
 * At start: seed when asked to (SEED_DEMO, on by default) and the catalog is empty; print the
 * logins once seeded. Never in production: a live shop's empty catalog is not a demo (use
 * `npm run seed` deliberately there).
 */
export async function seedDemoAtStart(
  db: Db,
  config: Config,
  print: (text: string) => void,
  storage?: MediaStorage,
): Promise<boolean> {
  if (!demoShopAllowed(config)) return false;
  const result = await seedDemoShop(db, new Date(), storage);
  if (result.seeded) print(demoLogins(config, result.counts));
  return result.seeded;
}
