import { el, GREEK_GIFT_RULE, GREEK_REELS, GREEK_SLIDES, GREEK_TRANSPORTS, greekCategory } from './demo-greek.ts';
import type { categories } from '../modules/catalog/catalog.tables.ts';
import { slugify } from '../modules/catalog/slug.ts';
import type { coupons, gifts } from '../modules/promotions/promotions.tables.ts';
import type { transports } from '../modules/shipping/shipping.tables.ts';
import type { reels, sliderGroups, sliders } from '../modules/cms/cms.tables.ts';
import { type DemoProduct, demoProducts } from './demo-catalog.ts';
import { DEPARTMENTS, EXTRA_LEAVES } from './demo-departments.ts';
import { Prng } from './prng.ts';

// Everything but the catalog rows' ids: plain values ready for multi-row inserts.

export const DEMO_SEED = 20_241_122;
export const DEMO_CUSTOMER = { email: 'demo@example.com', password: 'demo-customer-pw', loyaltyPoints: 1250 };

export interface DemoShop {
  departments: (typeof categories.$inferInsert)[];
  /** In leaf order (products name them by index); a third-level leaf names its parent leaf. */
  leaves: { departmentIndex: number; parentLeafIndex?: number; row: typeof categories.$inferInsert }[];
  products: DemoProduct[];
  transports: (typeof transports.$inferInsert)[];
  coupons: (typeof coupons.$inferInsert)[];
  reels: { row: typeof reels.$inferInsert; productIndexes: number[] }[];
  sliderGroup: typeof sliderGroups.$inferInsert;
  sliders: Omit<typeof sliders.$inferInsert, 'groupId'>[];
  giftRule: Omit<typeof gifts.$inferInsert, 'productIds'> & { productIndexes: number[] };
}

const DAY_MS = 86_400_000;

export function demoShop(now = new Date()): DemoShop {
  const catalog = demoProducts(new Prng(DEMO_SEED));
  const cheapSweets = catalog
    .map((p, i) => ({ p, i }))
    .filter(({ p }) => p.leafIndex >= 12 && p.active && p.price < 800)
    .slice(0, 4)
    .map(({ i }) => i);
  return {
    ...demoCategories(),
    products: catalog,
    transports: DEMO_TRANSPORTS.map((t) => {
      const [name, description] = GREEK_TRANSPORTS[t.name] ?? [t.name, ''];
      return { ...t, translations: el({ name, description }) };
    }),
    coupons: demoCoupons(now),
    reels: demoReels(catalog.length),
    sliderGroup: { name: 'Home hero', code: 'home-hero' },
    sliders: DEMO_SLIDERS.map((s) => {
      const [title, subtitle] = GREEK_SLIDES[s.title] ?? [s.title, ''];
      return { ...s, translations: el({ title, subtitle }) };
    }),
    giftRule: {
      name: 'Free chocolate over 150',
      minSubtotal: 15000,
      maxQty: 1,
      productIndexes: cheapSweets,
      translations: el({ name: GREEK_GIFT_RULE }),
    },
  };
}

/** The departments and, in leaf order, the categories under them. */
function demoCategories(): Pick<DemoShop, 'departments' | 'leaves'> {
  const departments = DEPARTMENTS.map((d, i) => ({
    name: d.name,
    slug: slugify(d.name),
    description: `Everything ${d.name.toLowerCase()}.`,
    position: i + 1,
    translations: greekCategory(d.name),
  }));
  const leaves: DemoShop['leaves'] = DEPARTMENTS.flatMap((d, departmentIndex) =>
    d.leaves.map((leaf, i) => ({
      departmentIndex,
      row: {
        name: leaf.name,
        slug: slugify(leaf.name),
        position: i + 1,
        active: !(departmentIndex === 4 && i === 2),
        translations: greekCategory(leaf.name),
      },
    })),
  );
  for (const leaf of EXTRA_LEAVES) {
    const departmentIndex = DEPARTMENTS.findIndex((d) => d.name === leaf.department);
    const parent = leaf.parent ? leaves.findIndex((l) => l.row.name === leaf.parent) : -1;
    leaves.push({
      departmentIndex,
      parentLeafIndex: parent >= 0 ? parent : undefined,
      row: {
        name: leaf.name,
        slug: leaf.slug ?? slugify(leaf.name),
        position: DEPARTMENTS[departmentIndex].leaves.length + 1,
        translations: greekCategory(leaf.name),
      },
    });
  }
  return { departments, leaves };
}

const DEMO_TRANSPORTS: DemoShop['transports'] = [
  {
    name: 'Standard courier',
    description: '2–3 working days',
    price: 1999,
    freeShippingThreshold: 25000,
    includedWeightKg: 5,
    overweightPricePerKg: 200,
    codFee: 500,
    position: 1,
  },
  {
    name: 'Express courier',
    description: 'Next working day',
    price: 2999,
    freeShippingThreshold: null,
    includedWeightKg: 3,
    overweightPricePerKg: 300,
    codFee: 500,
    position: 2,
  },
  {
    name: 'Pickup point',
    description: 'Collect from a locker',
    price: 999,
    freeShippingThreshold: 15000,
    includedWeightKg: 10,
    overweightPricePerKg: 100,
    codFee: 0,
    position: 3,
  },
  { name: 'Freight (retired)', price: 4999, active: false, position: 9 },
];

function demoCoupons(now: Date): DemoShop['coupons'] {
  return [
    {
      code: 'WELCOME10',
      type: 'percent',
      value: 1000,
      minSubtotal: 0,
      usageLimit: 1000,
      perCustomerLimit: 1,
    },
    {
      code: 'SAVE20',
      type: 'fixed',
      value: 2000,
      minSubtotal: 10000,
      endsAt: new Date(now.getTime() + 365 * DAY_MS),
    },
    { code: 'EXPIRED5', type: 'fixed', value: 500, endsAt: new Date(now.getTime() - 30 * DAY_MS) },
  ];
}

/** Six how-to reels, each showing three products of the catalog. */
function demoReels(productCount: number): DemoShop['reels'] {
  return [1, 2, 3, 4, 5, 6].map((n) => ({
    row: {
      translations: el({ title: Object.values(GREEK_REELS)[n - 1] ?? '' }),
      title: [
        'Latte art in 60 seconds',
        'Dialing in espresso',
        'Cold brew at home',
        'Matcha whisking',
        'Moka pot basics',
        'Pairing chocolate and coffee',
      ][n - 1],
      videoUrl: `https://videos.example.com/demo/reel-${n}.mp4`,
      posterUrl: `https://images.example.com/demo/reel-${n}.jpg`,
      position: n,
      active: n !== 6,
    },
    productIndexes: [n * 11, n * 23, n * 37].map((i) => i % productCount),
  }));
}

const DEMO_SLIDERS: DemoShop['sliders'] = [
  {
    title: 'Autumn roasts are here',
    subtitle: 'Up to 30 % off selected beans',
    imageUrl: 'https://images.example.com/demo/hero-1.jpg',
    linkUrl: '/category/coffee-beans',
    position: 1,
  },
  {
    title: 'Free shipping from 250',
    subtitle: 'With the standard courier',
    imageUrl: 'https://images.example.com/demo/hero-2.jpg',
    linkUrl: '/shipping',
    position: 2,
  },
  {
    title: 'Make it at home',
    subtitle: 'Machines and grinders',
    imageUrl: 'https://images.example.com/demo/hero-3.jpg',
    linkUrl: '/category/machines',
    position: 3,
  },
  {
    title: 'Collect points',
    subtitle: '100 points = 5.00',
    imageUrl: 'https://images.example.com/demo/hero-4.jpg',
    linkUrl: '/loyalty',
    position: 4,
  },
  {
    title: 'Gift a treat',
    subtitle: 'Free chocolate over 150',
    imageUrl: 'https://images.example.com/demo/hero-5.jpg',
    linkUrl: '/gifts',
    position: 5,
  },
  {
    title: 'Old campaign',
    imageUrl: 'https://images.example.com/demo/hero-6.jpg',
    position: 6,
    active: false,
  },
];
