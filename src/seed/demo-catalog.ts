import { GREEK_CATEGORIES, greekOptions } from './demo-greek.ts';
import { slugify } from '../modules/catalog/slug.ts';
import { DEPARTMENTS, EXTRA_LEAVES, type Leaf, PRODUCTS_PER_LEAF } from './demo-departments.ts';
import type { Prng } from './prng.ts';

// The demo shop's catalog, generated from a few word lists (demo-departments.ts) and a seeded
// PRNG: 5 departments, 18 categories under them (two of them a third level down, with
// Greek-named products) and 354 products, 8 of them in sizes and colours (variants).

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
  /** The Greek name, slug, description and options (demo-greek.ts). */
  translations: {
    el: { name: string; slug: string; description: string; options?: { name: string; values: string[] }[] };
  };
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

/** A product's Greek texts: its brand, its category's Greek name and its size (the name's end). */
function greekTexts(brand: string, leaf: string, name: string, sku: string) {
  const [category, slug] = GREEK_CATEGORIES[leaf] ?? [leaf, slugify(leaf)];
  const size = name.split(' ').slice(-2).join(' ');
  const greek = `${brand} ${category} ${size}`;
  return {
    el: {
      name: greek,
      slug: `${slug}-${sku.toLowerCase()}`,
      description: `${greek} από ${brand}. Αγαπημένο της κατηγορίας «${category}».`,
    },
  };
}

function withGreekOptions(
  texts: ReturnType<typeof greekTexts>,
  options: Leaf['options'],
): DemoProduct['translations'] {
  return options ? { el: { ...texts.el, options: greekOptions(options) } } : texts;
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
    translations: withGreekOptions(greekTexts(brand, leaf.name, name, sku), leaf.options),
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
