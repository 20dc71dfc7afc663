import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { adminHeaders, create, createProduct } from '../helpers/catalog-factories.ts';

type Json = Record<string, unknown>;

describe('CMS reels and sliders, shipping methods', () => {
  let t: TestApp;
  let media: Record<string, string>;

  before(async () => {
    t = await startTestApp();
    media = await adminHeaders(t.app, [9]);
  });
  after(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  test('when reels are listed, then active ones in position order with their products', async () => {
    const product = await createProduct(t.app);
    const cms = await adminHeaders(t.app, [4]);
    await create(
      t.app,
      '/rest/cms/reel',
      { title: 'Second', videoUrl: 'https://cdn.example.com/2.mp4', position: 2 },
      cms,
    );
    await create(
      t.app,
      '/rest/cms/reel',
      {
        title: 'First',
        videoUrl: 'https://cdn.example.com/1.mp4',
        position: 1,
        productIds: [product.id as number],
      },
      media,
    );
    await create(
      t.app,
      '/rest/cms/reel',
      { title: 'Off', videoUrl: 'https://cdn.example.com/0.mp4', active: false },
      media,
    );
    const res = await get('/rest/cms/reel?with=products');
    assert.deepEqual(
      (res.json().data as Json[]).map((r) => r.title),
      ['First', 'Second'],
    );
    assert.deepEqual(
      ((res.json().data as Json[])[0].products as Json[]).map((p) => p.id),
      [product.id],
    );
    const bad = await t.app.inject({
      method: 'POST',
      url: '/rest/cms/reel',
      headers: media,
      payload: { title: 'x', videoUrl: 'not a url' },
    });
    assert.equal(bad.statusCode, 400);
    const wrongRole = await t.app.inject({
      method: 'POST',
      url: '/rest/cms/reel',
      headers: await adminHeaders(t.app, [5]),
      payload: { title: 'x', videoUrl: 'https://a.example/x' },
    });
    assert.equal(wrongRole.statusCode, 403);
  });

  test('when a slider group is read with its sliders, then active sliders in position order', async () => {
    const group = await create(
      t.app,
      '/rest/cms/slider-group',
      { name: 'Home hero', code: 'home-hero' },
      media,
    );
    for (const [title, position, active] of [
      ['B', 2, true],
      ['A', 1, true],
      ['Hidden', 0, false],
    ] as const) {
      await create(
        t.app,
        '/rest/cms/slider',
        { groupId: group.id, title, imageUrl: `https://cdn.example.com/${title}.jpg`, position, active },
        media,
      );
    }
    const res = await get(`/rest/cms/slider-group/${group.id}?with=sliders`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(
      (res.json().data.sliders as Json[]).map((s) => s.title),
      ['A', 'B'],
    );
    const admin = await get(`/rest/cms/slider-group/${group.id}?with=sliders`, media);
    assert.equal((admin.json().data.sliders as Json[]).length, 3);
    const sliders = await get(`/rest/cms/slider?groupId=${group.id}&with=group`);
    assert.equal(sliders.json().pagination.total, 2);
    assert.equal(sliders.json().data[0].group.code, 'home-hero');
    const orphan = await t.app.inject({
      method: 'POST',
      url: '/rest/cms/slider',
      headers: media,
      payload: { groupId: 999999, title: 'x', imageUrl: 'https://a.example/x.jpg' },
    });
    assert.equal(orphan.statusCode, 422);
  });

  test('when a slider link or any media address is not an http(s) URL or a one-slash path, then 400 naming the field', async () => {
    const group = await create(t.app, '/rest/cms/slider-group', { name: 'Links', code: 'links' }, media);
    const slide = { groupId: group.id, title: 'Link', imageUrl: 'https://cdn.example.com/l.jpg' };
    const post = (path: string, payload: Json, headers = media) =>
      t.app.inject({ method: 'POST', url: path, headers, payload });
    const refused = [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      '\tjavascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      '//evil.example',
      '/\\evil.example',
      'https:\\\\evil.example',
      'https://user:pw@evil.example/',
      '/path with space',
      'https://shop.example/"onmouseover="alert(1)',
      '/<script>',
    ];
    for (const linkUrl of refused) {
      const res = await post('/rest/cms/slider', { ...slide, linkUrl });
      assert.equal(res.statusCode, 400, JSON.stringify(linkUrl));
      assert.equal(res.json().error.code, 'VALIDATION_FAILED');
      assert.deepEqual(res.json().error.details, [
        { field: 'linkUrl', message: 'must be an http(s) URL or a path starting with one /' },
      ]);
    }
    const patched = await create(t.app, '/rest/cms/slider', slide, media);
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/rest/cms/slider/${patched.id}`,
      headers: media,
      payload: { linkUrl: 'javascript:alert(1)' },
    });
    assert.deepEqual([patch.statusCode, patch.json().error.details[0].field], [400, 'linkUrl']);
    const products = await adminHeaders(t.app, [5]);
    for (const [path, payload, field, headers] of [
      [
        '/rest/cms/slider',
        { ...slide, imageUrl: 'data:image/svg+xml,<svg onload=alert(1)>' },
        'imageUrl',
        media,
      ],
      ['/rest/cms/reel', { title: 'x', videoUrl: '//evil.example/v.mp4' }, 'videoUrl', media],
      ['/rest/cms/reel', { title: 'x', videoUrl: '/v.mp4', posterUrl: 'javascript:x' }, 'posterUrl', media],
      [
        '/rest/product/product',
        { name: 'x', sku: 'URL-1', price: 1, images: ['/ok.jpg', 'javascript:x'] },
        'images.1',
        products,
      ],
    ] as const) {
      const res = await post(path, payload, headers);
      assert.equal(res.statusCode, 400, `${path} ${res.body}`);
      assert.equal(res.json().error.details[0].field, field);
    }
    for (const linkUrl of [
      'https://shop.example/category/1?x=1#top',
      'http://shop.example',
      '/category/1',
      '/',
    ]) {
      await create(t.app, '/rest/cms/slider', { ...slide, linkUrl }, media);
    }
    const shown = (await get(`/rest/cms/slider?groupId=${group.id}&limit=100`)).json().data as Json[];
    assert.deepEqual(
      shown.map((s) => s.linkUrl),
      [null, 'https://shop.example/category/1?x=1#top', 'http://shop.example', '/category/1', '/'],
    );
  });

  test('when transports are read by a guest, then active ones with decimal money', async () => {
    const admin = await adminHeaders(t.app, [3]);
    await create(
      t.app,
      '/rest/checkout/transport',
      { name: 'Courier', price: 4.99, freeShippingThreshold: 250, codFee: 1.5, position: 1 },
      admin,
    );
    await create(t.app, '/rest/checkout/transport', { name: 'Retired', price: 1, active: false }, admin);
    const res = await get('/rest/checkout/transport');
    assert.deepEqual(
      (res.json().data as Json[]).map((x) => [x.name, x.price, x.freeShippingThreshold, x.codFee]),
      [['Courier', 4.99, 250, 1.5]],
    );
    assert.equal('createdAt' in res.json().data[0], false);
  });

  test('when a reel names products, then a list shows them in the reel order, without hidden ones, as its own page does', async () => {
    const older = await createProduct(t.app, { name: 'Reel older' });
    const newer = await createProduct(t.app, { name: 'Reel newer' });
    const hidden = await createProduct(t.app, { name: 'Reel hidden', active: false });
    const reel = await create(
      t.app,
      '/rest/cms/reel',
      {
        title: 'Ordered',
        videoUrl: 'https://cdn.example.com/o.mp4',
        productIds: [newer.id as number, hidden.id as number, older.id as number],
      },
      media,
    );
    const listed = ((await get('/rest/cms/reel?with=products&limit=100')).json().data as Json[]).find(
      (r) => r.id === reel.id,
    )!;
    assert.deepEqual(
      (listed.products as Json[]).map((p) => p.name),
      ['Reel newer', 'Reel older'],
    );
    const shown = (await get(`/rest/cms/reel/${reel.id}?with=products`)).json().data as Json;
    assert.deepEqual(listed, shown);
  });
});
