// The shop's own words in the locales it speaks; the catalog's texts come translated by the API
// (docs/translations.md). A page reads `ctx.t.<key>`; a missing key is a type error.
import { shoppingEl, shoppingEn } from './i18n-shopping.ts';

export const LOCALES = ['el', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

const en = {
  lang: 'English',
  shopName: 'Demo Shop',
  skipToContent: 'Skip to content',
  search: 'Search',
  searchPlaceholder: 'Search products',
  cart: 'Cart',
  account: 'Account',
  language: 'Language',
  categories: 'Categories',
  home: 'Home',
  notFoundTitle: 'Page not found',
  notFoundText: 'We could not find this page. It may have moved, or the address may be mistyped.',
  backHome: 'Back to the home page',
  errorTitle: 'Something went wrong',
  errorText: 'The page could not be shown right now. Please try again in a moment.',
  errorReference: 'Reference',
  unavailableTitle: 'The shop is busy',
  unavailableText: 'The shop cannot answer right now. Please try again in a minute.',
  footerText: 'Prices include VAT.',
  featured: 'Featured products',
  homeDescription: 'Coffee, tea, machines and sweets, delivered across Greece.',
  highlights: 'Highlights',
  reels: 'Watch and shop',
  newArrivals: 'New arrivals',
  addToCart: 'Add to cart',
  quantity: 'Quantity',
  inStock: 'In stock',
  lowStock: 'Only a few left',
  outOfStock: 'Out of stock',
  soldOut: 'sold out',
  sku: 'SKU',
  brand: 'Brand',
  referencePrice: 'Lowest price of the last 30 days',
  reducedFrom: 'Deal',
  choose: 'Choose',
  chooseVariant: 'Choose the options',
  unavailableCombination: 'not available',
  sort: 'Sort by',
  sortRelevance: 'Relevance',
  sortNewest: 'Newest',
  sortPriceAsc: 'Price: low to high',
  sortPriceDesc: 'Price: high to low',
  sortName: 'Name',
  perPage: 'Per page',
  apply: 'Apply',
  filters: 'Filters',
  clearFilters: 'Clear filters',
  price: 'Price',
  availability: 'Availability',
  onlyInStock: 'In stock only',
  onSale: 'On sale',
  subcategories: 'Subcategories',
  products: (n: number) => (n === 1 ? '1 product' : `${n} products`),
  page: (n: number, of: number) => `Page ${n} of ${of}`,
  previous: 'Previous',
  next: 'Next',
  pagination: 'Pages',
  noProducts: 'No products match these filters.',
  searchResults: (q: string) => `Results for “${q}”`,
  searchEmpty: 'Type what you are looking for.',
  searchNone: (q: string) => `Nothing matches “${q}”. Check the spelling or try fewer words.`,
  breadcrumb: 'Breadcrumb',
  images: 'Images',
  description: 'Description',
  ...shoppingEn,
};
export type Messages = typeof en;

const el: Messages = {
  lang: 'Ελληνικά',
  shopName: 'Demo Shop',
  skipToContent: 'Μετάβαση στο περιεχόμενο',
  search: 'Αναζήτηση',
  searchPlaceholder: 'Αναζήτηση προϊόντων',
  cart: 'Καλάθι',
  account: 'Λογαριασμός',
  language: 'Γλώσσα',
  categories: 'Κατηγορίες',
  home: 'Αρχική',
  notFoundTitle: 'Η σελίδα δεν βρέθηκε',
  notFoundText: 'Δεν βρήκαμε αυτή τη σελίδα. Ίσως μετακινήθηκε ή η διεύθυνση γράφτηκε λάθος.',
  backHome: 'Επιστροφή στην αρχική',
  errorTitle: 'Κάτι πήγε στραβά',
  errorText: 'Η σελίδα δεν μπορεί να εμφανιστεί αυτή τη στιγμή. Δοκιμάστε ξανά σε λίγο.',
  errorReference: 'Κωδικός αναφοράς',
  unavailableTitle: 'Το κατάστημα είναι απασχολημένο',
  unavailableText: 'Το κατάστημα δεν μπορεί να απαντήσει τώρα. Δοκιμάστε ξανά σε ένα λεπτό.',
  footerText: 'Οι τιμές περιλαμβάνουν ΦΠΑ.',
  featured: 'Προτεινόμενα προϊόντα',
  homeDescription: 'Καφές, τσάι, μηχανές και γλυκά, με αποστολή σε όλη την Ελλάδα.',
  highlights: 'Προβολές',
  reels: 'Δείτε και αγοράστε',
  newArrivals: 'Νέες αφίξεις',
  addToCart: 'Προσθήκη στο καλάθι',
  quantity: 'Ποσότητα',
  inStock: 'Διαθέσιμο',
  lowStock: 'Λίγα τεμάχια',
  outOfStock: 'Εξαντλημένο',
  soldOut: 'εξαντλημένο',
  sku: 'Κωδικός',
  brand: 'Μάρκα',
  referencePrice: 'Χαμηλότερη τιμή των τελευταίων 30 ημερών',
  reducedFrom: 'Προσφορά',
  choose: 'Επιλέξτε',
  chooseVariant: 'Επιλέξτε παραλλαγή',
  unavailableCombination: 'μη διαθέσιμο',
  sort: 'Ταξινόμηση',
  sortRelevance: 'Συνάφεια',
  sortNewest: 'Νεότερα',
  sortPriceAsc: 'Τιμή: αύξουσα',
  sortPriceDesc: 'Τιμή: φθίνουσα',
  sortName: 'Όνομα',
  perPage: 'Ανά σελίδα',
  apply: 'Εφαρμογή',
  filters: 'Φίλτρα',
  clearFilters: 'Καθαρισμός φίλτρων',
  price: 'Τιμή',
  availability: 'Διαθεσιμότητα',
  onlyInStock: 'Μόνο διαθέσιμα',
  onSale: 'Σε προσφορά',
  subcategories: 'Υποκατηγορίες',
  products: (n: number) => (n === 1 ? '1 προϊόν' : `${n} προϊόντα`),
  page: (n: number, of: number) => `Σελίδα ${n} από ${of}`,
  previous: 'Προηγούμενη',
  next: 'Επόμενη',
  pagination: 'Σελίδες',
  noProducts: 'Κανένα προϊόν δεν ταιριάζει με αυτά τα φίλτρα.',
  searchResults: (q: string) => `Αποτελέσματα για «${q}»`,
  searchEmpty: 'Γράψτε τι ψάχνετε.',
  searchNone: (q: string) =>
    `Τίποτα δεν ταιριάζει με «${q}». Ελέγξτε την ορθογραφία ή δοκιμάστε λιγότερες λέξεις.`,
  breadcrumb: 'Διαδρομή',
  images: 'Εικόνες',
  description: 'Περιγραφή',
  ...shoppingEl,
};

export const MESSAGES: Record<Locale, Messages> = { el, en };

export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

/** The first enabled language of an Accept-Language header, by quality; else the default. */
export function localeFromAcceptLanguage(header: string | undefined): Locale {
  const ranked = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { lang: tag.trim().slice(0, 2).toLowerCase(), q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => entry.lang && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return (ranked.find((entry) => isLocale(entry.lang))?.lang as Locale | undefined) ?? DEFAULT_LOCALE;
}

/** Money as the shop shows it: `€12.90` / `12,90 €`. The API answers decimals of euros. */
export function formatPrice(amount: number, locale: Locale): string {
  return new Intl.NumberFormat(locale === 'el' ? 'el-GR' : 'en-IE', {
    style: 'currency',
    currency: 'EUR',
  }).format(amount);
}
