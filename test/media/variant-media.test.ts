import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { adminHeaders } from '../helpers/catalog-factories.ts';
import { type AssetJson, picture, uploaded } from './media-fixtures.ts';

type Json = Record<string, unknown>;

describe('media: variants created with their product', () => {
  let t: TestApp;
  let products: Record<string, string>;
  let front: AssetJson;
  let back: AssetJson;

  before(async () => {
    t = await startTestApp();
    products = await adminHeaders(t.app, [5]);
    front = await uploaded(t.app, products, await picture(640, 480, 'jpeg'), {
      fileName: 'front.jpg',
      alt: 'Front',
    });
    back = await uploaded(t.app, products, await picture(320, 240, 'png'), { fileName: 'back.png' });
  });
  after(() => t.close());

  const sized = (sku: string, variants: Json[]) =>
    t.app.inject({
      method: 'POST',
      url: '/rest/product/product',
      headers: products,
      payload: {
        name: 'Sized shirt',
        sku,
        price: 25,
        options: [{ name: 'Size', values: ['S', 'M'] }],
        variants,
      },
    });

  test('when a product is created with variants carrying media, then each variant shows its own images', async () => {
    const res = await sized('SHIRT-1', [
      {
        sku: 'SHIRT-1-S',
        options: { Size: 'S' },
        media: [{ assetId: front.id }, { assetId: back.id, alt: 'Back' }],
      },
      { sku: 'SHIRT-1-M', options: { Size: 'M' } },
    ]);
    assert.equal(res.statusCode, 201, res.body);
    const read = await t.app.inject({ url: `/rest/product/product/${res.json().data.id}?with=variants` });
    const variants = read.json().data.variants as Json[];
    const small = variants.find((v) => v.sku === 'SHIRT-1-S') as Json;
    const medium = variants.find((v) => v.sku === 'SHIRT-1-M') as Json;
    assert.deepEqual(
      (small.media as Json[]).map((m) => [m.id, m.alt, m.width, m.srcset]),
      [
        [front.id, 'Front', 640, front.srcset],
        [back.id, 'Back', 320, back.srcset],
      ],
    );
    assert.deepEqual(small.images, [front.url, back.url]);
    assert.deepEqual([medium.media, medium.images], [[], []]);
    const usage = (await t.app.inject({ url: `/rest/media/asset/${back.id}`, headers: products })).json().data
      .usedBy as Json[];
    assert.deepEqual(
      usage.map((u) => [u.owner, u.id]),
      [['variant', small.id]],
    );
  });

  test('when a nested variant names an unknown image, then 422 names it and no product is created', async () => {
    const count = async () =>
      (await t.app.inject({ url: '/rest/product/product', headers: products })).json().pagination.total;
    const before = await count();
    const res = await sized('SHIRT-2', [
      { sku: 'SHIRT-2-S', options: { Size: 'S' } },
      { sku: 'SHIRT-2-M', options: { Size: 'M' }, media: [{ assetId: front.id }, { assetId: 999_999 }] },
    ]);
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().error.code, 'UNKNOWN_ASSET');
    assert.deepEqual(
      res.json().error.details.map((d: Json) => d.field),
      ['variants.1.media.1.assetId'],
    );
    assert.equal(await count(), before);
  });
});
