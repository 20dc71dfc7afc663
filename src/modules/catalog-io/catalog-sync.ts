import { AjvCompiler } from '@fastify/ajv-compiler';
import type { TSchema } from '@sinclair/typebox';
import { AppError } from '../../http/errors.ts';
import { fromCents } from '../../lib/money.ts';
import {
  createBody,
  createEntity,
  updateEntity,
  type Values,
  type WriteRequestContext,
} from '../../resources/index.ts';
import { categoryResource } from '../catalog/category.resource.ts';
import { productResource } from '../catalog/product.resource.ts';
import { nestedVariantBody, variantResource } from '../catalog/variant.resource.ts';
import type { ImportProblem } from './catalog-io.tables.ts';
import { childCategory } from './shop-catalog.repo.ts';

// The import's writes go through the catalog's resources (createEntity/updateEntity), as an
// admin's own would: the same hooks (slugs, price history and product.price_changed), the same
// triggers (stock events, the answer cache's versions) and the same audit entries. Only the fields
// whose value differs are written, so an unchanged row writes nothing and raises no event.

export type Outcome = 'created' | 'updated' | 'unchanged';

/** A write the catalog refused, as problems of the row (the field named as the file's column). */
export class RowRefused extends Error {
  constructor(readonly problems: ImportProblem[]) {
    super(problems.map((p) => `${p.column} ${p.message}`).join('; '));
  }
}

const COLUMN_OF: Record<string, string> = {
  sku: 'SKU',
  name: 'Name',
  slug: 'Name',
  description: 'Description',
  price: 'Regular price',
  taxClass: 'Tax class',
  stockQty: 'Stock',
  weightKg: 'Weight (kg)',
  categoryId: 'Categories',
  images: 'Images',
  media: 'Images',
  active: 'Published',
  options: 'Attribute 1 value(s)',
  variants: 'Attribute 1 value(s)',
};

/** The file's column of a field path the catalog names (`translations.el.name` → `Name:el`). */
function columnOf(field: string): string {
  const [head, locale, sub] = field.split('.');
  if (head === 'translations' && locale && sub) return `${sub === 'description' ? 'Description' : 'Name'}:${locale}`;
  return COLUMN_OF[head] ?? '';
}

/** Problems of the row from the catalog's refusal; anything else is not the row's fault and goes on. */
export function refusalOf(err: unknown, row: number): ImportProblem[] | null {
  if (err instanceof RowRefused) return err.problems;
  if (!(err instanceof AppError) || err.status >= 500) return null;
  const details = err.details ?? [];
  if (details.length === 0) return [{ row, column: '', message: err.message }];
  return details.map((d) => ({ row, column: columnOf(d.field), message: `${d.field} ${d.message}` }));
}

type Validate = ((data: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null };

/** The validator a body route would use (Ajv, no type coercion), compiled once per schema. */
const compile = AjvCompiler()({}, { customOptions: { allErrors: true, coerceTypes: false } }) as unknown as (route: {
  schema: unknown;
  httpPart: string;
}) => Validate;
const checks = new Map<TSchema, Validate>();

/** Checks a body against the schema the catalog's own routes validate it with. */
export function checkBody(schema: TSchema, body: Values, row: number): void {
  let validate = checks.get(schema);
  if (!validate) {
    validate = compile({ schema, httpPart: 'body' });
    checks.set(schema, validate);
  }
  if (validate(body)) return;
  const problems = (validate.errors ?? []).slice(0, 5).map((e) => {
    const field = e.instancePath.replace(/^\//, '').replaceAll('/', '.');
    return { row, column: columnOf(field), message: `${field || 'body'} ${e.message ?? 'is invalid'}` };
  });
  throw new RowRefused(problems);
}

let productSchema: TSchema | undefined;
let variantSchema: TSchema | undefined;
export const productCreateSchema = () => (productSchema ??= createBody(productResource));
export const variantSchemaOf = () => (variantSchema ??= nestedVariantBody());

export const money = (cents: number) => fromCents(cents);

/** Writes the product: created from the body, or the fields that differ from what the shop holds. */
export async function writeProduct(
  rctx: WriteRequestContext,
  existingId: number | undefined,
  body: Values,
  changed: Values,
): Promise<{ id: number; outcome: Outcome }> {
  if (existingId === undefined) {
    const { data } = await createEntity(rctx, productResource, body);
    return { id: Number((data as { id: number }).id), outcome: 'created' };
  }
  if (Object.keys(changed).length === 0) return { id: existingId, outcome: 'unchanged' };
  await updateEntity(rctx, productResource, existingId, changed);
  return { id: existingId, outcome: 'updated' };
}

export async function writeVariant(
  rctx: WriteRequestContext,
  existingId: number | undefined,
  body: Values,
  changed: Values,
): Promise<Outcome> {
  if (existingId === undefined) {
    await createEntity(rctx, variantResource, body);
    return 'created';
  }
  if (Object.keys(changed).length === 0) return 'unchanged';
  await updateEntity(rctx, variantResource, existingId, changed);
  return 'updated';
}

/**
 * The categories of an import, found by their path of names from the root and made when missing.
 * Categories made in a transaction that is then rolled back (a dry run, a refused row) are
 * forgotten with it: `commit()` keeps the ones of a row that landed.
 */
export class CategoryPaths {
  private kept = new Map<string, number>();
  private pending = new Map<string, number>();

  async idOf(rctx: WriteRequestContext, path: readonly string[]): Promise<number> {
    let parentId: number | null = null;
    for (let depth = 1; depth <= path.length; depth++) {
      const key = JSON.stringify(path.slice(0, depth));
      const name = path[depth - 1];
      let id: number | undefined = this.kept.get(key) ?? this.pending.get(key) ?? (await childCategory(rctx.db, parentId, name));
      if (id === undefined) {
        const body: Values = parentId === null ? { name } : { name, parentId };
        const { data } = await createEntity(rctx, categoryResource, body);
        id = Number((data as { id: number }).id);
      }
      this.pending.set(key, id);
      parentId = id;
    }
    // biome-ignore lint/style/noNonNullAssertion: a path has at least one name (readCategoryPath)
    return parentId!;
  }

  /** The id of a path already found or made in this import (without a statement), else undefined. */
  known(path: readonly string[]): number | undefined {
    return this.kept.get(JSON.stringify(path));
  }

  commit(): void {
    for (const [key, id] of this.pending) this.kept.set(key, id);
    this.pending.clear();
  }

  rollback(): void {
    this.pending.clear();
  }
}
