import type { Values, WriteRequestContext } from '../../resources/index.ts';
import type { ProductOption } from '../catalog/catalog.tables.ts';
import type { ImportProblem } from './catalog-io.tables.ts';
import {
  type CategoryPaths,
  checkBody,
  money,
  type Outcome,
  productCreateSchema,
  refusalOf,
  RowRefused,
  variantSchemaOf,
  writeProduct,
  writeVariant,
} from './catalog-sync.ts';
import { productBySku, type ShopProduct, type ShopVariant, variantsBySku } from './shop-catalog.repo.ts';
import type { ProductRow } from './woo-row.ts';

// One product of the file into the catalog: a simple row, or a variable row with its variation
// rows (the catalog makes a product with options together with its variants). Each variation is
// compared and written on its own; the caller runs the whole in a transaction.

export interface RowsContext {
  rctx: WriteRequestContext;
  categories: CategoryPaths;
  /** Problems of single variations, which do not stop their product's other rows. */
  problems: ImportProblem[];
}

export type Outcomes = Map<number, Outcome>;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** `media` as written ([{assetId}]) against the stored images ([{id, …}]): by the images and their order. */
function differs(key: string, value: unknown, stored: unknown): boolean {
  if (key !== 'media') return !same(value, stored);
  const ids = (value as { assetId: number }[]).map((m) => m.assetId);
  return !same(ids, ((stored ?? []) as { id: number }[]).map((m) => m.id));
}

/** The row's images as the catalog takes them: the library's (fetched) or the addresses. */
function imagesOf(row: ProductRow, body: Values): void {
  if (row.mediaIds !== null) body.media = row.mediaIds.map((assetId) => ({ assetId }));
  else if (row.images !== null) body.images = row.images;
}

/** The product's fields as the row gives them, in the catalog's write terms (decimals, ids). */
async function productBody(ctx: RowsContext, row: ProductRow, price: number): Promise<Values> {
  const categoryId = row.categoryPath ? await ctx.categories.idOf(ctx.rctx, row.categoryPath) : row.categoryPath;
  return productBodyIn(row, price, categoryId);
}

/** productBody with the category's id known (undefined: no `Categories` column). */
function productBodyIn(row: ProductRow, price: number, categoryId: number | null | undefined): Values {
  const body: Values = {
    sku: row.sku,
    name: row.name,
    price: money(price),
    taxClass: row.taxClass,
    active: row.active,
  };
  if (row.description !== null) body.description = row.description;
  if (row.weightKg !== null) body.weightKg = row.weightKg;
  imagesOf(row, body);
  if (categoryId !== undefined) body.categoryId = categoryId;
  if (Object.keys(row.translations).length > 0) body.translations = row.translations;
  return body;
}

/** What differs between the body and the stored product (translations: only the texts the file gives). */
function productChanges(body: Values, shop: ShopProduct): Values {
  const changed: Values = {};
  const stored: Record<string, unknown> = { ...shop, price: money(shop.price) };
  for (const [key, value] of Object.entries(body)) {
    if (key === 'translations' || key === 'sku' || key === 'variants') continue;
    if (differs(key, value, stored[key])) changed[key] = value;
  }
  const translations = body.translations as Record<string, Record<string, string>> | undefined;
  for (const [locale, texts] of Object.entries(translations ?? {})) {
    for (const [field, text] of Object.entries(texts)) {
      if (shop.translations[locale]?.[field] !== text) changed.translations = translations;
    }
  }
  return changed;
}

function withoutNull(body: Values): Values {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null));
}

/** A simple row: one product with its one plain variant (its stock). */
export async function importSimple(ctx: RowsContext, row: ProductRow): Promise<Outcome> {
  const shop = await productBySku(ctx.rctx.db, row.sku);
  if (shop && shop.options.length > 0) {
    throw new RowRefused([{ row: row.row, column: 'Type', message: 'the shop holds this SKU as a variable product' }]);
  }
  // biome-ignore lint/style/noNonNullAssertion: readRow requires the price of a simple row
  const body = await productBody(ctx, row, row.price!);
  if (row.stock !== null) body.stockQty = row.stock;
  checkBody(productCreateSchema(), withoutNull(body), row.row);
  let changed: Values = {};
  if (shop) {
    changed = productChanges(body, shop);
    const [plain] = await variantsBySku(ctx.rctx.db, [row.sku]);
    if (row.stock === null || plain?.stockQty === row.stock) delete changed.stockQty;
    else changed.stockQty = row.stock;
  }
  return (await writeProduct(ctx.rctx, shop?.id, withoutNull(body), changed)).outcome;
}

/** The options of a variable product: its row's attributes, and any value only a variation names. */
function optionsOf(product: ProductRow, variations: readonly ProductRow[]): ProductOption[] {
  const options = product.attributes.map((a) => ({ name: a.name, values: [...a.values] }));
  for (const v of variations) {
    for (const a of v.attributes) {
      const option = options.find((o) => o.name === a.name);
      if (!option) options.push({ name: a.name, values: [...a.values] });
      else for (const value of a.values) if (!option.values.includes(value)) option.values.push(value);
    }
  }
  return options;
}

function chosen(row: ProductRow): Record<string, string> {
  return Object.fromEntries(row.attributes.map((a) => [a.name, a.values[0]]));
}

export function variantBodyOf(row: ProductRow, position: number): Values {
  const body: Values = { sku: row.sku, options: chosen(row), active: row.active, position };
  if (row.price !== null) body.price = money(row.price);
  if (row.stock !== null) body.stockQty = row.stock;
  if (row.weightKg !== null) body.weightKg = row.weightKg;
  imagesOf(row, body);
  return body;
}

function variantChanges(body: Values, shop: ShopVariant): Values {
  const stored: Record<string, unknown> = { ...shop, price: shop.price === null ? null : money(shop.price) };
  const changed: Values = {};
  for (const [key, value] of Object.entries(body)) {
    if (key !== 'sku' && differs(key, value, stored[key])) changed[key] = value;
  }
  if (body.price === undefined && shop.price !== null) changed.price = null;
  return changed;
}

/** A variable row with its variations: the product (created with its variants), then each variation. */
export async function importVariable(
  ctx: RowsContext,
  product: ProductRow,
  variations: readonly ProductRow[],
): Promise<Outcomes> {
  const outcomes: Outcomes = new Map();
  const shop = await productBySku(ctx.rctx.db, product.sku);
  const body = await productBody(ctx, product, variablePrice(product, variations));
  body.options = optionsOf(product, variations);
  const bodies = variations.map((v, i) => variantBodyOf(v, i));
  if (!shop) {
    checkBody(productCreateSchema(), { ...withoutNull(body), variants: bodies }, product.row);
    await writeProduct(ctx.rctx, undefined, { ...withoutNull(body), variants: bodies }, {});
    outcomes.set(product.row, 'created');
    for (const v of variations) outcomes.set(v.row, 'created');
    return outcomes;
  }
  checkBody(productCreateSchema(), withoutNull(body), product.row);
  const changed = productChanges(body, shop);
  outcomes.set(product.row, (await writeProduct(ctx.rctx, shop.id, body, changed)).outcome);
  const found = new Map((await variantsBySku(ctx.rctx.db, variations.map((v) => v.sku))).map((v) => [v.sku, v]));
  for (const [i, v] of variations.entries()) {
    const outcome = await importVariation(ctx, shop.id, v, bodies[i], found.get(v.sku));
    if (outcome) outcomes.set(v.row, outcome);
  }
  return outcomes;
}

/** One variation of a product the shop holds; a refusal is the row's problem, the others go on. */
export async function importVariation(
  ctx: RowsContext,
  productId: number,
  row: ProductRow,
  body: Values,
  shop: ShopVariant | undefined,
): Promise<Outcome | undefined> {
  const { problems } = ctx;
  if (shop && shop.productId !== productId) {
    problems.push({ row: row.row, column: 'SKU', message: 'is the SKU of a variant of another product' });
    return undefined;
  }
  try {
    checkBody(variantSchemaOf(), body, row.row);
    return await writeVariant(ctx.rctx, shop?.id, shop ? body : { ...body, productId }, shop ? variantChanges(body, shop) : {});
  } catch (err) {
    const refused = refusalOf(err, row.row);
    if (!refused) throw err;
    problems.push(...refused);
    return undefined;
  }
}

/** The variable row's own price: its cell, else its cheapest variation's; refused without either. */
function variablePrice(product: ProductRow, variations: readonly ProductRow[]): number {
  const prices = variations.map((v) => v.price).filter((p): p is number => p !== null);
  const price = product.price ?? (prices.length ? Math.min(...prices) : null);
  if (price === null) {
    throw new RowRefused([{ row: product.row, column: 'Regular price', message: 'is needed on the product or its variations' }]);
  }
  return price;
}

/**
 * The create body of a product the shop does not hold: a simple row, or a variable row with its
 * variations as its variants. Checked by the create schema (a refusal is RowRefused).
 */
export async function newProductBody(ctx: RowsContext, product: ProductRow, variations: readonly ProductRow[]): Promise<Values> {
  const path = product.categoryPath;
  // Checked before its category is found or made, so that a refused row makes none.
  const price = product.kind === 'simple' ? product.price : variablePrice(product, variations);
  // biome-ignore lint/style/noNonNullAssertion: readRow requires the price of a simple row
  let body = withoutNull(productBodyIn(product, price!, path ? 1 : path));
  if (product.kind === 'simple') {
    if (product.stock !== null) body.stockQty = product.stock;
  } else {
    body.options = optionsOf(product, variations);
    body = { ...body, variants: variations.map((v, i) => variantBodyOf(v, i)) };
  }
  checkBody(productCreateSchema(), body, product.row);
  if (path) body.categoryId = await ctx.categories.idOf(ctx.rctx, path);
  return body;
}

/**
 * Whether the shop holds the product (and its variations) as the rows give them, told without a
 * statement from what the batch read: then nothing is to be written. False whenever it cannot be
 * told so cheaply (a category not seen yet) or a write would be refused: the row's own path decides.
 */
export function holdsAlready(
  product: ProductRow,
  variations: readonly ProductRow[],
  shop: ShopProduct,
  variants: ReadonlyMap<string, ShopVariant>,
  categoryId: number | null | undefined,
): boolean {
  try {
    if (product.kind === 'simple') {
      if (shop.options.length > 0) return false;
      // biome-ignore lint/style/noNonNullAssertion: readRow requires the price of a simple row
      const body = productBodyIn(product, product.price!, categoryId);
      checkBody(productCreateSchema(), withoutNull(body), product.row);
      const { stockQty: _, ...changed } = productChanges(body, shop);
      const plain = variants.get(product.sku);
      return Object.keys(changed).length === 0 && (product.stock === null || plain?.stockQty === product.stock);
    }
    const body = productBodyIn(product, variablePrice(product, variations), categoryId);
    body.options = optionsOf(product, variations);
    checkBody(productCreateSchema(), withoutNull(body), product.row);
    if (Object.keys(productChanges(body, shop)).length > 0) return false;
    return variations.every((v, i) => {
      const stored = variants.get(v.sku);
      const vbody = variantBodyOf(v, i);
      if (stored?.productId !== shop.id) return false;
      checkBody(variantSchemaOf(), vbody, v.row);
      return Object.keys(variantChanges(vbody, stored)).length === 0;
    });
  } catch (err) {
    if (err instanceof RowRefused) return false;
    throw err;
  }
}
