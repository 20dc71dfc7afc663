import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { categoryResource } from '../../src/modules/catalog/category.resource.ts';
import { giftResource } from '../../src/modules/promotions/promotions.resources.ts';
import { transportResource } from '../../src/modules/shipping/shipping.resource.ts';
import { productResource } from '../../src/modules/catalog/product.resource.ts';
import { reelResource, sliderGroupResource } from '../../src/modules/cms/cms.resources.ts';
import { itemSchema } from '../../src/resources/schemas.ts';
import type { Resource, Scope } from '../../src/resources/types.ts';
import { bearer, sessionToken, startTestApp, type TestApp } from '../helpers/app.ts';
import {
  adminHeaders,
  create,
  createCategory,
  createProduct,
  insertCustomer,
} from '../helpers/catalog-factories.ts';

// The per-scope response schema is the leak guard on every read path: a list without relations
// (the page's JSON text made by the database and sent as it is), a list with relations (JSON rows
// embedded in the service), the item and the show (rows through the scope's serializer). Whichever
// path served it, no key leaves that the caller's scope schema does not name.

type Json = Record<string, unknown>;

const RESOURCES: [Resource, string][] = [
  [productResource, 'category'],
  [categoryResource, 'parent'],
  [transportResource, ''],
  [giftResource, ''],
  [reelResource, ''],
  [sliderGroupResource, 'sliders'],
];

/** Keys in `row` (and its embedded relations) that `schema` does not name. */
function strayKeys(row: Json, schema: { properties?: Record<string, Json> }, at = ''): string[] {
  const stray: string[] = [];
  for (const [key, value] of Object.entries(row)) {
    const property = schema.properties?.[key];
    if (!property) {
      stray.push(`${at}${key}`);
      continue;
    }
    const nested =
      (property.anyOf as Json[] | undefined)?.find((s) => s.type === 'object' || s.type === 'array') ??
      property;
    const inner = (nested.type === 'array' ? nested.items : nested) as { properties?: Record<string, Json> };
    for (const child of Array.isArray(value) ? value : [value]) {
      if (child && typeof child === 'object' && inner.properties)
        stray.push(...strayKeys(child as Json, inner, `${at}${key}.`));
    }
  }
  return stray;
}

describe('the scope schema guards every read path', () => {
  let t: TestApp;
  const callers: Record<Scope, Record<string, string>> = { public: {}, customer: {}, backend: {} };

  before(async () => {
    t = await startTestApp();
    const parent = await createCategory(t.app, { name: 'Leak parent' });
    const child = await createCategory(t.app, { name: 'Leak child', parentId: parent.id });
    const product = await createProduct(t.app, {
      categoryId: child.id,
      costPrice: 3.21,
      supplierCode: 'SUP-LEAK',
      adminNotes: 'leak-guard-secret-note',
    });
    await create(t.app, '/rest/checkout/transport', { name: 'Leak courier', price: 4.5 });
    await create(t.app, '/rest/checkout/gift', { productIds: [product.id] });
    await create(t.app, '/rest/cms/reel', { title: 'Leak reel', videoUrl: 'https://example.com/v.mp4' });
    const group = await create(t.app, '/rest/cms/slider-group', { name: 'Leak group', code: 'leak-group' });
    await create(t.app, '/rest/cms/slider', {
      groupId: group.id,
      title: 'Leak slide',
      imageUrl: 'https://example.com/s.jpg',
    });
    callers.customer = bearer(
      await sessionToken(t.app, { sub: String(await insertCustomer(t.database.db)), ctx: 'customer' }),
    );
    callers.backend = await adminHeaders(t.app);
  });
  after(() => t.close());

  for (const [resource, relation] of RESOURCES) {
    test(`when ${resource.name} is read by every scope on every path, then only keys of that scope's schema leave`, async () => {
      for (const scope of ['public', 'customer', 'backend'] as Scope[]) {
        const schema = itemSchema(resource, scope) as unknown as { properties: Record<string, Json> };
        const paths = [resource.path, `${resource.path}/item`];
        if (relation) paths.push(`${resource.path}?with=${relation}`);
        for (const url of paths) {
          const res = await t.app.inject({ method: 'GET', url, headers: callers[scope] });
          assert.equal(res.statusCode, 200, `${scope} ${url}: ${res.body.slice(0, 200)}`);
          const data = res.json().data;
          const rows = (Array.isArray(data) ? data : [data]) as Json[];
          for (const row of rows) assert.deepEqual(strayKeys(row, schema), [], `${scope} ${url}`);
          if (scope !== 'backend')
            assert.doesNotMatch(res.body, /SUP-LEAK|leak-guard-secret-note|costPrice/, url);
        }
        const first = (
          await t.app.inject({ method: 'GET', url: `${resource.path}/item`, headers: callers[scope] })
        ).json().data;
        const shown = await t.app.inject({
          method: 'GET',
          url: `${resource.path}/${first.id}`,
          headers: callers[scope],
        });
        assert.deepEqual(strayKeys(shown.json().data, schema), [], `${scope} show`);
      }
    });
  }
});
