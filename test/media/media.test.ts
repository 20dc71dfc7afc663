import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  adminHeaders,
  create,
  createProduct,
  customerHeaders,
  insertCustomer,
} from '../helpers/catalog-factories.ts';
import { type AssetJson, formData, picture, pngClaiming, upload, uploaded } from './media-fixtures.ts';

type Json = Record<string, unknown>;
const MAX_BYTES = 2 * 1024 * 1024;

describe('media: uploads and resized copies', () => {
  let t: TestApp;
  let media: Record<string, string>;
  let photo: AssetJson;

  before(async () => {
    t = await startTestApp({ config: { media: { maxBytes: MAX_BYTES } } });
    media = await adminHeaders(t.app, [9]);
    photo = await uploaded(t.app, media, await picture(1200, 800, 'jpeg'), {
      fileName: 'shoe.jpg',
      alt: 'A shoe',
    });
  });
  after(() => t.close());

  const file = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  test('when a photo with EXIF and GPS is uploaded, then it is kept with its size and without its metadata', async () => {
    const bytes = await picture(900, 600, 'jpeg', { exif: true });
    assert.ok((await sharp(bytes).metadata()).exif, 'the upload carries EXIF');
    const res = await upload(t.app, media, bytes, { fileName: 'holiday.jpg', alt: 'Beach' });
    assert.equal(res.statusCode, 201);
    const asset = res.json().data as AssetJson;
    assert.deepEqual(
      [asset.mimeType, asset.width, asset.height, asset.alt],
      ['image/jpeg', 900, 600, 'Beach'],
    );
    assert.match(asset.url, /^\/media\/\d+\/holiday\.jpg$/);
    const stored = await file(asset.url);
    assert.equal(stored.headers['content-type'], 'image/jpeg');
    assert.equal(stored.rawPayload.length, asset.bytes);
    const meta = await sharp(stored.rawPayload).metadata();
    assert.deepEqual([meta.width, meta.height, meta.exif, meta.xmp], [900, 600, undefined, undefined]);
  });

  test('when PNG, WebP, AVIF and GIF images are uploaded, then each is recognised from its bytes', async () => {
    for (const format of ['png', 'webp', 'avif', 'gif'] as const) {
      // Named and declared as something else: only the bytes count.
      const res = await upload(t.app, media, await picture(80, 60, format), {
        fileName: 'x.bin',
        type: 'text/plain',
      });
      assert.equal(res.statusCode, 201, `${format}: ${res.body}`);
      const asset = res.json().data as AssetJson;
      assert.equal(asset.mimeType, `image/${format}`);
      const meta = await sharp((await file(asset.url)).rawPayload).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], [format === 'avif' ? 'heif' : format, 80, 60]);
    }
  });

  test('when SVG, HTML or PDF bytes come named and typed as an image, then 415 and nothing is kept', async () => {
    const before = (await t.app.inject({ url: '/rest/media/asset?limit=1', headers: media })).json()
      .pagination.total;
    const disguised = [
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="9" height="9"/></svg>',
      '<!doctype html><html><script>alert(1)</script></html>',
      '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF',
    ];
    for (const text of disguised) {
      const res = await upload(t.app, media, Buffer.from(text), {
        fileName: 'pretty.png',
        type: 'image/png',
      });
      assert.equal(res.statusCode, 415, res.body);
      assert.equal(res.json().error.code, 'UNSUPPORTED_MEDIA_TYPE');
    }
    const after = (await t.app.inject({ url: '/rest/media/asset?limit=1', headers: media })).json().pagination
      .total;
    assert.equal(after, before);
  });

  test('when an upload is over the size limit, then 413', async () => {
    const big = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(MAX_BYTES + 1000, 7)]);
    const res = await upload(t.app, media, big);
    assert.equal(res.statusCode, 413, res.body);
  });

  test('when an image declares more than 40 megapixels, then 422 before it is decoded', async () => {
    const res = await upload(t.app, media, pngClaiming(20_000, 20_000), { fileName: 'bomb.png' });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().error.code, 'IMAGE_TOO_LARGE');
  });

  test('when an image is truncated or corrupt, then 422 and the service keeps answering', async () => {
    const whole = await picture(400, 300, 'jpeg');
    const corrupt = Buffer.from(whole);
    corrupt.fill(0x55, 200, 2000);
    for (const bytes of [whole.subarray(0, whole.length / 2), corrupt, whole.subarray(0, 20)]) {
      const res = await upload(t.app, media, bytes);
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().error.code, 'IMAGE_UNREADABLE');
    }
    assert.equal((await file(photo.url)).statusCode, 200);
  });

  test('when a file name carries a path, NUL or is very long, then the URL holds a short safe name', async () => {
    const png = await picture(40, 40, 'png');
    for (const name of [
      '../../etc/passwd.png',
      'a\u0000b.png',
      `${'x'.repeat(5000)}.png`,
      '..\\..\\win.ini',
    ]) {
      const asset = await uploaded(t.app, media, png, { fileName: name });
      const fileName = asset.url.split('/')[3];
      assert.match(fileName, /^[a-z0-9-]{1,60}\.png$/, name.slice(0, 30));
      assert.equal((await file(asset.url)).statusCode, 200);
    }
  });

  test('when a copy is asked for, then it has the width and format asked, with immutable caching', async () => {
    const res = await file(`${photo.url}?w=640&format=webp`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'image/webp');
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin');
    assert.equal(res.headers['content-length'], String(res.rawPayload.length));
    assert.ok(res.headers['x-request-id']);
    const meta = await sharp(res.rawPayload).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['webp', 640, 427]);
    const again = await file(`${photo.url}?w=640&format=webp`, { 'if-none-match': String(res.headers.etag) });
    assert.equal(again.statusCode, 304);
    assert.equal(again.rawPayload.length, 0);
    assert.equal(again.headers.etag, res.headers.etag);
    assert.equal(again.headers['content-type'], undefined);
  });

  test('when format=auto, then Accept chooses AVIF, WebP or the original format', async () => {
    const cases: [string, string][] = [
      ['image/avif,image/webp,*/*', 'image/avif'],
      ['image/webp,*/*', 'image/webp'],
      ['*/*', 'image/jpeg'],
    ];
    for (const [accept, type] of cases) {
      const res = await file(`${photo.url}?w=320&format=auto`, { accept });
      assert.equal(res.headers['content-type'], type, accept);
      assert.equal(res.headers.vary, 'Accept');
      assert.equal((await sharp(res.rawPayload).metadata()).width, 320);
    }
  });

  test('when a width outside the list, an unknown id or another name is asked for, then 400 or 404', async () => {
    assert.equal((await file(`${photo.url}?w=333`)).statusCode, 400);
    assert.equal((await file(`${photo.url}?format=tiff`)).statusCode, 400);
    assert.equal((await file('/media/999999/shoe.jpg')).statusCode, 404);
    assert.equal((await file(`/media/${photo.id}/other.jpg`)).statusCode, 404);
  });

  test('when many first requests for one copy arrive at once, then it is made once and all get it', async () => {
    const fresh = await uploaded(t.app, media, await picture(1000, 700, 'jpeg'));
    const made = t.app.mediaFiles.copiesMade;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => file(`${fresh.url}?w=480&format=avif`)),
    );
    assert.equal(t.app.mediaFiles.copiesMade - made, 1);
    assert.ok(answers.every((a) => a.statusCode === 200 && a.rawPayload.equals(answers[0].rawPayload)));
    assert.equal((await sharp(answers[0].rawPayload).metadata()).width, 480);
  });

  test('when a product shows media, then reads give URLs, sizes and a srcset, and images follow', async () => {
    const second = await uploaded(t.app, media, await picture(300, 300, 'webp'), { alt: 'Box' });
    const products = await adminHeaders(t.app, [5]);
    const product = await createProduct(t.app, {
      media: [{ assetId: photo.id, alt: 'Front' }, { assetId: second.id }],
    });
    const res = await t.app.inject({ url: `/rest/product/product/${product.id}`, headers: products });
    const data = res.json().data as Json;
    assert.deepEqual(data.media, [
      { id: photo.id, url: photo.url, alt: 'Front', width: 1200, height: 800, srcset: photo.srcset },
      { id: second.id, url: second.url, alt: 'Box', width: 300, height: 300, srcset: second.srcset },
    ]);
    assert.deepEqual(data.images, [photo.url, second.url]);
    const guest = (await t.app.inject({ url: `/rest/product/product/${product.id}` })).json().data as Json;
    assert.deepEqual(
      (guest.media as Json[]).map((m) => m.srcset),
      [photo.srcset, second.srcset],
    );
    assert.match(photo.srcset, /\?w=64 64w, .*\?w=960 960w$/);
  });

  test('when variants, slides and reels take media, then each reads it back', async () => {
    const cms = await adminHeaders(t.app, [1]);
    const product = await create(
      t.app,
      '/rest/product/product',
      {
        name: 'Sized',
        sku: `SZ-${Date.now()}`,
        price: 10,
        options: [{ name: 'Size', values: ['S', 'M'] }],
        variants: [{ sku: `SZ-S-${Date.now()}`, options: { Size: 'S' } }],
      },
      cms,
    );
    const variantId = (
      (await t.app.inject({ url: `/rest/product/product/${product.id}?with=variants` })).json().data
        .variants as Json[]
    )[0].id;
    const variant = await t.app.inject({
      method: 'PATCH',
      url: `/rest/product/variant/${variantId}`,
      headers: cms,
      payload: { media: [{ assetId: photo.id }] },
    });
    assert.equal(variant.statusCode, 200, variant.body);
    assert.deepEqual(
      (variant.json().data.media as Json[]).map((m) => m.url),
      [photo.url],
    );
    const group = await create(
      t.app,
      '/rest/cms/slider-group',
      { name: 'Home', code: `home-${Date.now()}` },
      cms,
    );
    const slide = await create(
      t.app,
      '/rest/cms/slider',
      { groupId: group.id, title: 'Hero', media: [{ assetId: photo.id }] },
      cms,
    );
    assert.equal(slide.imageUrl, photo.url);
    assert.equal((slide.media as Json[])[0].width, 1200);
    const reel = await create(
      t.app,
      '/rest/cms/reel',
      { title: 'Clip', videoUrl: 'https://cdn.example.com/c.mp4', media: [{ assetId: photo.id }] },
      cms,
    );
    assert.equal(reel.posterUrl, photo.url);
    const noImage = await t.app.inject({
      method: 'POST',
      url: '/rest/cms/slider',
      headers: cms,
      payload: { groupId: group.id, title: 'None' },
    });
    assert.equal(noImage.statusCode, 400);
    const usage = (await t.app.inject({ url: `/rest/media/asset/${photo.id}`, headers: media })).json().data
      .usedBy as Json[];
    assert.deepEqual(
      usage
        .filter((u) => u.owner !== 'product')
        .map((u) => u.owner)
        .sort(),
      ['reel', 'slide', 'variant'],
    );
  });

  test('when media names an image that does not exist, then 422 and nothing is written', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/rest/product/product',
      headers: await adminHeaders(t.app, [5]),
      payload: { name: 'Ghost', sku: 'GHOST-1', price: 5, media: [{ assetId: 987654 }] },
    });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().error.code, 'UNKNOWN_ASSET');
    const found = await t.app.inject({ url: '/rest/product/product?sku=GHOST-1', headers: media });
    assert.equal(found.json().pagination.total, 0);
  });

  test('when an image in use is deleted, then 409 naming its owner; unused, it goes with its files', async () => {
    const asset = await uploaded(t.app, media, await picture(200, 100, 'png'));
    await file(`${asset.url}?w=64`);
    const product = await createProduct(t.app, { media: [{ assetId: asset.id }] });
    const refused = await t.app.inject({
      method: 'DELETE',
      url: `/rest/media/asset/${asset.id}`,
      headers: media,
    });
    assert.equal(refused.statusCode, 409);
    assert.equal(refused.json().error.code, 'ASSET_IN_USE');
    assert.match(refused.json().error.message, new RegExp(`product ${product.id}`));
    const products = await adminHeaders(t.app, [5]);
    await t.app.inject({
      method: 'PATCH',
      url: `/rest/product/product/${product.id}`,
      headers: products,
      payload: { media: [] },
    });
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/rest/media/asset/${asset.id}`,
      headers: media,
    });
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.equal((await file(asset.url)).statusCode, 404);
    assert.equal((await file(`${asset.url}?w=64`)).statusCode, 404);
  });

  test('when the library is searched and an alt text changed, then the list and the asset say so', async () => {
    const asset = await uploaded(t.app, media, await picture(50, 50, 'png'), {
      fileName: 'red-umbrella.png',
    });
    const changed = await t.app.inject({
      method: 'PATCH',
      url: `/rest/media/asset/${asset.id}`,
      headers: media,
      payload: { alt: 'A red umbrella' },
    });
    assert.equal(changed.json().data.alt, 'A red umbrella');
    const list = await t.app.inject({ url: '/rest/media/asset?q=umbrella', headers: media });
    assert.deepEqual(
      (list.json().data as Json[]).map((a) => a.id),
      [asset.id],
    );
    const byAlt = await t.app.inject({ url: '/rest/media/asset?q=RED%20UMB', headers: media });
    assert.deepEqual(
      (byAlt.json().data as Json[]).map((a) => a.id),
      [asset.id],
    );
  });

  test('when a guest, a customer or an admin without a media role uploads, then 401 or 403', async () => {
    const png = await picture(10, 10, 'png');
    assert.equal((await upload(t.app, {}, png)).statusCode, 401);
    const customer = await customerHeaders(t.app, await insertCustomer(t.database.db));
    assert.equal((await upload(t.app, customer, png)).statusCode, 403);
    assert.equal((await upload(t.app, await adminHeaders(t.app, [6]), png)).statusCode, 403);
    for (const roles of [[5], [4]])
      assert.equal((await upload(t.app, await adminHeaders(t.app, roles), png)).statusCode, 201);
  });

  test('when the body is not a file part or not whole multipart, then 400', async () => {
    const form = formData([{ name: 'file', value: 'just text' }]);
    const cut = { ...form.headers, 'content-type': 'multipart/form-data; boundary=x' };
    const statuses: string[] = [];
    for (const [method, url, headers, payload] of [
      ['POST', '/rest/media/asset', form.headers, form.payload],
      ['POST', '/rest/media/asset', cut, '--x\r\nContent-Disposition: form-data; name="file"'],
      ['PATCH', `/rest/media/asset/${photo.id}`, cut, '{"alt":"a"}'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { ...media, ...headers }, payload });
      statuses.push(`${method} ${res.statusCode} ${res.json().error?.code}`);
    }
    assert.deepEqual(statuses, [
      'POST 400 VALIDATION_FAILED',
      'POST 400 VALIDATION_FAILED',
      'PATCH 400 VALIDATION_FAILED',
    ]);
  });
});
