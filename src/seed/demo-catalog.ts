import { slugify } from '../modules/catalog/slug.ts';
import type { Prng } from './prng.ts';

// The demo shop's catalog, generated from a few word lists and a seeded PRNG: a coffee and
// kitchen shop with 5 departments, 18 categories under them (two of them a third level down,
// with Greek-named products) and 354 products, 8 of them in sizes and colours (variants).

interface Leaf {
  name: string;
  nouns: string[];
  sizes: string[];
  /** Price range in cents. */
  price: [number, number];
  /** Weight range in grams. */
  grams: [number, number];
  vat: number;
  /** A third level: the leaf of the same department this one sits under. */
  parent?: string;
  /** The category's slug when its name has no Latin letters. */
  slug?: string;
  /** Brands of this leaf instead of the department's. */
  brands?: string[];
  /** Options every product of this leaf comes in (one variant per combination). */
  options?: { name: string; values: string[] }[];
}

interface Department {
  name: string;
  brands: string[];
  leaves: Leaf[];
}

export const DEPARTMENTS: Department[] = [
  {
    name: 'Coffee',
    brands: ['Lavazza', 'Illy', 'Segafredo', 'Kimbo', 'Bristot', 'Pellini'],
    leaves: [
      {
        name: 'Coffee Beans',
        nouns: ['Espresso Beans', 'Crema Beans', 'Single Origin Beans', 'Dark Roast'],
        sizes: ['250 g', '500 g', '1 kg'],
        price: [699, 3499],
        grams: [250, 1000],
        vat: 9,
      },
      {
        name: 'Ground Coffee',
        nouns: ['Ground Espresso', 'Filter Blend', 'Moka Grind', 'Decaf Ground'],
        sizes: ['250 g', '500 g'],
        price: [499, 1999],
        grams: [250, 500],
        vat: 9,
      },
      {
        name: 'Capsules',
        nouns: ['Capsules Intenso', 'Capsules Lungo', 'Capsules Ristretto', 'Pods Classico'],
        sizes: ['10 pcs', '30 pcs', '100 pcs'],
        price: [399, 3999],
        grams: [60, 600],
        vat: 9,
      },
    ],
  },
  {
    name: 'Tea',
    brands: ['Twinings', 'Lipton', 'Teekanne', 'Pukka', 'Ahmad Tea'],
    leaves: [
      {
        name: 'Green Tea',
        nouns: ['Sencha', 'Jasmine Green', 'Matcha', 'Gunpowder'],
        sizes: ['20 bags', '50 bags', '100 g'],
        price: [299, 2499],
        grams: [40, 200],
        vat: 9,
      },
      {
        name: 'Black Tea',
        nouns: ['English Breakfast', 'Earl Grey', 'Assam', 'Darjeeling'],
        sizes: ['25 bags', '50 bags', '250 g'],
        price: [249, 1999],
        grams: [50, 250],
        vat: 9,
      },
      {
        name: 'Herbal Tea',
        nouns: ['Chamomile', 'Peppermint', 'Rooibos', 'Ginger Lemon'],
        sizes: ['20 bags', '40 bags'],
        price: [199, 1299],
        grams: [30, 80],
        vat: 9,
      },
    ],
  },
  {
    name: 'Machines',
    brands: ['DeLonghi', 'Philips', 'Sage', 'Krups', 'Bialetti', 'Gaggia'],
    leaves: [
      {
        name: 'Espresso Machines',
        nouns: ['Espresso Machine', 'Bean-to-Cup Machine', 'Lever Machine'],
        sizes: ['Black', 'Silver', 'Red'],
        price: [9999, 129999],
        grams: [4000, 14000],
        vat: 19,
      },
      {
        name: 'Grinders',
        nouns: ['Burr Grinder', 'Hand Grinder', 'Blade Grinder'],
        sizes: ['Black', 'Steel'],
        price: [1999, 29999],
        grams: [500, 3500],
        vat: 19,
      },
      {
        name: 'Moka Pots',
        nouns: ['Moka Pot', 'Stovetop Espresso Maker'],
        sizes: ['3 cups', '6 cups', '9 cups'],
        price: [1999, 6999],
        grams: [400, 1200],
        vat: 19,
      },
    ],
  },
  {
    name: 'Kitchen',
    brands: ['Zwilling', 'Le Creuset', 'Bodum', 'Hario', 'Chemex'],
    leaves: [
      {
        name: 'Mugs & Cups',
        nouns: ['Ceramic Mug', 'Double Wall Glass', 'Espresso Cup Set', 'Travel Mug'],
        sizes: ['200 ml', '350 ml', '450 ml'],
        price: [599, 4999],
        grams: [150, 900],
        vat: 19,
      },
      {
        name: 'Brewing',
        nouns: ['French Press', 'Pour-Over Dripper', 'Cold Brew Maker', 'Gooseneck Kettle'],
        sizes: ['0.6 l', '1 l', '1.5 l'],
        price: [1499, 8999],
        grams: [300, 1600],
        vat: 19,
      },
      {
        name: 'Accessories',
        nouns: ['Milk Frother', 'Tamper', 'Knock Box', 'Coffee Scale'],
        sizes: ['Standard', 'Pro'],
        price: [799, 7999],
        grams: [100, 1500],
        vat: 19,
      },
    ],
  },
  {
    name: 'Sweets',
    brands: ['Lindt', 'Milka', 'Ferrero', 'Lotus', 'Loacker'],
    leaves: [
      {
        name: 'Chocolate',
        nouns: ['Dark Chocolate', 'Milk Chocolate', 'Hazelnut Pralines', 'Sea Salt Bar'],
        sizes: ['100 g', '200 g', '400 g'],
        price: [199, 2499],
        grams: [100, 450],
        vat: 9,
      },
      {
        name: 'Biscuits',
        nouns: ['Caramel Biscuits', 'Almond Cantuccini', 'Butter Cookies', 'Wafers'],
        sizes: ['150 g', '250 g', '500 g'],
        price: [149, 1499],
        grams: [150, 550],
        vat: 9,
      },
      {
        name: 'Syrups',
        nouns: ['Vanilla Syrup', 'Caramel Syrup', 'Hazelnut Syrup'],
        sizes: ['250 ml', '700 ml'],
        price: [499, 1699],
        grams: [350, 1000],
        vat: 9,
      },
    ],
  },
];

export const PRODUCTS_PER_LEAF = 22;

/**
 * Leaves added after the first catalog, generated after it so its products keep their order and
 * values: Greek coffee and mountain tea a level further down, and wear in sizes and colours.
 */
export const EXTRA_LEAVES: (Leaf & { department: string; products: number })[] = [
  {
    department: 'Coffee',
    parent: 'Ground Coffee',
    name: 'Ελληνικός Καφές',
    slug: 'greek-coffee',
    brands: ['Λουμίδης', 'Παπαγάλος', 'Bravo'],
    nouns: ['Ελληνικός Καφές', 'Καφές Χαρμάνι', 'Καφές Βαρύγλυκος'],
    sizes: ['96 g', '194 g', '490 g'],
    price: [249, 1299],
    grams: [96, 490],
    vat: 13,
    products: 8,
  },
  {
    department: 'Tea',
    parent: 'Herbal Tea',
    name: 'Τσάι του Βουνού',
    slug: 'mountain-tea',
    brands: ['Άλσος', 'Βότανα Κρήτης'],
    nouns: ['Τσάι του Βουνού', 'Φασκόμηλο', 'Χαμομήλι'],
    sizes: ['30 g', '50 g'],
    price: [299, 899],
    grams: [30, 60],
    vat: 13,
    products: 8,
  },
  {
    department: 'Kitchen',
    name: 'Barista Wear',
    brands: ['Hario', 'Bodum', 'Chemex'],
    nouns: ['Barista Apron', 'Shop T-Shirt', 'Denim Apron'],
    sizes: ['Classic'],
    price: [1499, 4999],
    grams: [150, 600],
    vat: 19,
    options: [
      { name: 'Size', values: ['S', 'M', 'L', 'XL'] },
      { name: 'Colour', values: ['Black', 'White', 'Navy'] },
    ],
    products: 8,
  },
];

export interface DemoVariant {
  sku: string;
  options: Record<string, string>;
  /** null: the product's price. */
  price: number | null;
  stockQty: number;
}

export interface DemoProduct {
  leafIndex: number;
  sku: string;
  slug: string;
  name: string;
  description: string;
  brand: string;
  price: number;
  /** The regular price, when the product is on sale (price is then the sale price). */
  regularPrice: number | null;
  costPrice: number;
  vatRate: number;
  stockQty: number;
  weightKg: number;
  images: string[];
  supplierCode: string;
  adminNotes: string | null;
  active: boolean;
  options: { name: string; values: string[] }[];
  /** Empty: the product has one plain variant (made by the database). */
  variants: DemoVariant[];
}

/** Prices end in .99 or .49, like a shop's. */
function shopPrice(prng: Prng, [min, max]: [number, number]): number {
  const euros = Math.floor(prng.int(min, max) / 100);
  return euros * 100 + (prng.chance(0.7) ? 99 : 49);
}

function stockOf(prng: Prng): number {
  if (prng.chance(0.08)) return 0;
  if (prng.chance(0.1)) return prng.int(1, 4);
  return prng.int(5, 250);
}

function demoProduct(
  prng: Prng,
  leaf: Leaf,
  leafIndex: number,
  n: number,
  brands: string[],
  department: string,
): DemoProduct {
  const brand = prng.pick(leaf.brands ?? brands);
  const name = `${brand} ${prng.pick(leaf.nouns)} ${prng.pick(leaf.sizes)}`;
  const sku = `DEMO-${String(leafIndex + 1).padStart(2, '0')}${String(n).padStart(3, '0')}`;
  const regular = shopPrice(prng, leaf.price);
  const onSale = prng.chance(0.12);
  const price = onSale ? Math.max(99, Math.round((regular * prng.int(70, 90)) / 100)) : regular;
  return {
    leafIndex,
    sku,
    slug: `${slugify(name)}-${sku.toLowerCase()}`,
    name,
    description: `${name} from ${brand}. A ${leaf.name.toLowerCase()} favourite of our ${department.toLowerCase()} department.`,
    brand,
    price,
    regularPrice: onSale ? regular : null,
    costPrice: Math.round((regular * prng.int(50, 70)) / 100),
    vatRate: leaf.vat,
    stockQty: stockOf(prng),
    weightKg: prng.int(leaf.grams[0], leaf.grams[1]) / 1000,
    images: [
      `https://images.example.com/demo/${sku.toLowerCase()}-1.jpg`,
      `https://images.example.com/demo/${sku.toLowerCase()}-2.jpg`,
    ],
    supplierCode: `SUP-${brand.slice(0, 3).toUpperCase()}-${prng.int(1000, 9999)}`,
    adminNotes: prng.chance(0.1) ? 'Reorder before the holidays.' : null,
    active: !prng.chance(0.05),
    options: leaf.options ?? [],
    variants: leaf.options ? variantsOf(prng, sku, leaf.options, price) : [],
  };
}

/** One variant per combination of the options; the largest size costs 2.00 more, some are sold out. */
function variantsOf(
  prng: Prng,
  sku: string,
  options: { name: string; values: string[] }[],
  price: number,
): DemoVariant[] {
  let combinations: Record<string, string>[] = [{}];
  for (const option of options) {
    combinations = combinations.flatMap((c) => option.values.map((v) => ({ ...c, [option.name]: v })));
  }
  return combinations.map((chosen) => ({
    sku: `${sku}-${Object.values(chosen).join('-').toUpperCase()}`,
    options: chosen,
    price: Object.values(chosen).includes('XL') ? price + 200 : null,
    stockQty: prng.chance(0.15) ? 0 : prng.int(1, 40),
  }));
}

export function demoProducts(prng: Prng): DemoProduct[] {
  const products: DemoProduct[] = [];
  let leafIndex = 0;
  for (const department of DEPARTMENTS) {
    for (const leaf of department.leaves) {
      for (let n = 1; n <= PRODUCTS_PER_LEAF; n++) {
        products.push(demoProduct(prng, leaf, leafIndex, n, department.brands, department.name));
      }
      leafIndex++;
    }
  }
  for (const leaf of EXTRA_LEAVES) {
    for (let n = 1; n <= leaf.products; n++) {
      products.push(demoProduct(prng, leaf, leafIndex, n, [], leaf.department));
    }
    leafIndex++;
  }
  return products;
}
