import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { adminHeaders } from '../helpers/catalog-factories.ts';
import { exported, IMPORT_APP_CONFIG, imported } from './import-fixtures.ts';

// Export → import into a shop without those products → export again gives the same CSV (but
// for the ID column: ids are each shop's own). The catalogs are made through the API of a first
// shop; the second shop starts empty and receives each run's products.

type Json = Record<string, unknown>;

/** Texts as merchants write them: Greek, quotes, semicolons, line breaks, formula-looking starts. */
const text = (max: number) =>
  fc
    .array(fc.constantFrom('a', 'Z', 'ά', 'Ω', ' ', '"', ';', ',', '\n', '=', '-', '+', '@', "'", '1', '.'), {
      minLength: 1,
      maxLength: max,
    })
    .map((chars) => chars.join('').trim())
    .filter((s) => s !== '');
const word = fc
  .array(fc.constantFrom('a', 'b', 'κ', 'λ', 'X', '1', ' ', '-'), { minLength: 1, maxLength: 8 })
  .map((chars) => chars.join('').trim())
  .filter((s) => s !== '' && !s.startsWith('-'));
const cents = fc.integer({ min: 0, max: 10_000_000 });
const weight = fc.integer({ min: 0, max: 100_000 }).map((grams) => grams / 1000);

const common = {
  name: text(20),
  description: fc.option(text(40), { nil: undefined }),
  price: cents,
  taxClass: fc.constantFrom('standard', 'reduced', 'zero'),
  active: fc.boolean(),
  weightKg: weight,
  category: fc.option(fc.array(word, { minLength: 1, maxLength: 2 }), { nil: undefined }),
  images: fc.array(fc.stringMatching(/^[a-z0-9]{1,8}$/).map((s) => `https://cdn.example.com/${s}.jpg`), { maxLength: 2 }),
  greekName: fc.option(text(20), { nil: undefined }),
};

const simple = fc.record({ kind: fc.constant('simple' as const), stock: fc.integer({ min: 0, max: 1000 }), ...common });
const variable = fc.record({
  kind: fc.constant('variable' as const),
  ...common,
  sizes: fc.uniqueArray(word, { minLength: 1, maxLength: 3 }),
  variants: fc.array(
    fc.record({
      price: fc.option(cents, { nil: null }),
      stock: fc.integer({ min: 0, max: 1000 }),
      active: fc.boolean(),
    }),
    { minLength: 3, maxLength: 3 },
  ),
});
const catalog = fc.array(fc.oneof(simple, variable), { minLength: 1, maxLength: 4 });

describe('export → import → export', () => {
  let source: TestApp;
  let target: TestApp;
  let sourceAdmin: Record<string, string>;
  let targetAdmin: Record<string, string>;

  before(async () => {
    source = await startTestApp();
    target = await startTestApp({ config: IMPORT_APP_CONFIG });
    sourceAdmin = await adminHeaders(source.app, [5]);
    targetAdmin = await adminHeaders(target.app, [5]);
  });
  after(async () => {
    await Promise.all([source.close(), target.close()]);
  });

  const send = async (url: string, payload: Json): Promise<Json> => {
    const res = await source.app.inject({ method: 'POST', url, headers: sourceAdmin, payload });
    assert.equal(res.statusCode, 201, `${url}: ${res.body}`);
    return res.json().data as Json;
  };

  async function categoryOf(path: string[], run: number): Promise<number> {
    let parentId: number | undefined;
    for (const name of path) {
      const body: Json = { name: `${name} ${run}` };
      if (parentId !== undefined) body.parentId = parentId;
      parentId = Number((await send('/rest/product/category', body)).id);
    }
    return parentId as number;
  }

  let run = 0;
  /** Makes the catalog through the API; answers its SKUs. */
  async function make(products: Json[]): Promise<string[]> {
    run++;
    const skus: string[] = [];
    for (const [i, p] of products.entries()) {
      const sku = `RT${run}-${i}`;
      skus.push(sku);
      const body: Json = {
        sku,
        name: p.name,
        price: (p.price as number) / 100,
        taxClass: p.taxClass,
        active: p.active,
        weightKg: p.weightKg,
        images: p.images,
      };
      if (p.description !== undefined) body.description = p.description;
      if (p.category) body.categoryId = await categoryOf(p.category as string[], run);
      if (p.greekName !== undefined) body.translations = { el: { name: p.greekName } };
      if (p.kind === 'simple') body.stockQty = p.stock;
      else {
        const sizes = p.sizes as string[];
        body.options = [{ name: 'Size', values: sizes }];
        body.variants = (p.variants as Json[]).slice(0, sizes.length).map((v, j) => ({
          sku: `${sku}-${j}`,
          options: { Size: sizes[j] },
          ...(v.price === null ? {} : { price: (v.price as number) / 100 }),
          stockQty: v.stock,
          active: v.active,
        }));
      }
      await send('/rest/product/product', body);
    }
    return skus;
  }

  /** The CSV without its ID column (each shop numbers its own rows). */
  const withoutIds = (csv: string) => csv.replace(/^([^,\n]*),/gm, '');

  test('when a catalog is exported, imported into another shop and exported there, then the CSV is the same', async () => {
    await fc.assert(
      fc.asyncProperty(catalog, async (products) => {
        const skus = await make(products as Json[]);
        const query = `?sku=${skus.join(',')}`;
        const first = await exported(source.app, sourceAdmin, query);
        const report = await imported(target.app, targetAdmin, first);
        assert.deepEqual(report.errors, []);
        const second = await exported(target.app, targetAdmin, query);
        assert.equal(withoutIds(second), withoutIds(first));
        const again = await imported(target.app, targetAdmin, second);
        assert.deepEqual([again.created, again.updated], [0, 0], 'importing an export changes nothing');
      }),
      { numRuns: 12 },
    );
  });
});
