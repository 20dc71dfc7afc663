// The word lists the demo catalog is generated from (demo-catalog.ts): a coffee and kitchen
// shop's 5 departments, their categories (leaves), brands, product nouns, sizes, prices and weights.

export interface Leaf {
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

export interface Department {
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
