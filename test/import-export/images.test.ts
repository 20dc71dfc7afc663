import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { queryRows } from '../../src/db/client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { adminHeaders } from '../helpers/catalog-factories.ts';
import { picture } from '../media/media-fixtures.ts';
import { csvLine, exported, IMPORT_APP_CONFIG, imported } from './import-fixtures.ts';

// The import's `Images` taken into the media library, against a real HTTP server this file starts
// on the loopback address: served images become the products' and variants' media, each address
// is fetched once, and an address that gives no image is the row's problem while the row lands.

interface MediaJson {
  id: number;
  url: string;
  alt: string;
}

interface ProductJson {
  name: string;
  price: number;
  images: string[];
  media: MediaJson[];
  variants: { sku: string; images: string[]; media: MediaJson[] }[];
  updatedAt: string;
}

const HEADER = ['Type', 'SKU', 'Name', 'Regular price', 'Images', 'Parent', 'Attribute 1 name', 'Attribute 1 value(s)'];
const IMAGE_LIMITS = { maxBytes: 200_000, timeoutMs: 2000 };

/** A server of images: each path's answer, and how often each was asked for. */
async function imageServer(): Promise<{ server: Server; base: string; hits: Map<string, number> }> {
  const photo = await picture(400, 300, 'jpeg', { exif: true });
  const logo = await picture(120, 80, 'png');
  const huge = Buffer.concat([photo, Buffer.alloc(300_000)]);
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
    const path = new URL(req.url ?? '', 'http://server').pathname;
    const send = (status: number, type: string, bytes: Buffer | string) => {
      res.writeHead(status, { 'content-type': type });
      res.end(bytes);
    };
    if (path === '/photo.jpg') return send(200, 'image/jpeg', photo);
    if (path === '/logo.png') return send(200, 'image/png', logo);
    if (path === '/moved.jpg') {
      res.writeHead(302, { location: '/photo.jpg' });
      return res.end();
    }
    if (path === '/page.jpg') return send(200, 'image/jpeg', '<html><body>not a picture</body></html>');
    if (path === '/huge.jpg') return send(200, 'image/jpeg', huge);
    if (path === '/slow.jpg') return; // never answers
    send(404, 'text/plain', 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

function csv(rows: Record<string, string>[]): string {
  return `${[HEADER, ...rows.map((r) => HEADER.map((c) => r[c] ?? ''))].map((cells) => csvLine(cells)).join('\n')}\n`;
}

async function productOf(t: TestApp, admin: Record<string, string>, sku: string): Promise<ProductJson> {
  const res = await t.app.inject({ method: 'GET', url: `/rest/product/product?sku=${sku}&with=variants`, headers: admin });
  const [row] = res.json().data as ProductJson[];
  assert.ok(row, `${sku} is in the shop`);
  return row;
}

const assetCount = async (t: TestApp) =>
  (await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from media_asset`))[0].n;

describe('catalog import: images fetched into the media library', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let images: Awaited<ReturnType<typeof imageServer>>;

  before(async () => {
    images = await imageServer();
    // The loopback server is a private address: allowed here, as the webhooks' tests allow their receiver.
    t = await startTestApp({
      config: { ...IMPORT_APP_CONFIG, import: { images: { ...IMAGE_LIMITS, allowPrivateTargets: true } } },
    });
    admin = await adminHeaders(t.app, [5]);
  });
  after(async () => {
    await t.close();
    images.server.closeAllConnections();
    images.server.close();
  });

  const file = (base: string) =>
    csv([
      { Type: 'simple', SKU: 'IMG-MUG', Name: 'Mug', 'Regular price': '9.00', Images: `${base}/photo.jpg, ${base}/logo.png` },
      { Type: 'simple', SKU: 'IMG-CUP', Name: 'Cup', 'Regular price': '7.00', Images: `${base}/logo.png` },
      {
        Type: 'variable',
        SKU: 'IMG-TEE',
        Name: 'Tee',
        'Regular price': '15.00',
        Images: `${base}/moved.jpg`,
        'Attribute 1 name': 'Size',
        'Attribute 1 value(s)': 'S, M',
      },
      { Type: 'variation', SKU: 'IMG-TEE-S', Parent: 'IMG-TEE', Images: `${base}/logo.png`, 'Attribute 1 name': 'Size', 'Attribute 1 value(s)': 'S' },
      { Type: 'variation', SKU: 'IMG-TEE-M', Parent: 'IMG-TEE', 'Attribute 1 name': 'Size', 'Attribute 1 value(s)': 'M' },
    ]);

  test('when a file asks for its images, then products and variants show them from the library, in order, each address fetched once', async () => {
    const report = await imported(t.app, admin, file(images.base), { fetchImages: true });
    assert.deepEqual(report.errors, []);
    assert.equal(report.created, 5);

    const mug = await productOf(t, admin, 'IMG-MUG');
    assert.equal(mug.media.length, 2);
    assert.match(mug.media[0].url, /^\/media\/\d+\/photo\.jpg$/);
    assert.match(mug.media[1].url, /^\/media\/\d+\/logo\.png$/);
    assert.deepEqual(mug.images, mug.media.map((m) => m.url), 'images follow the media');
    assert.equal(mug.media[0].alt, 'Mug', "the image's alt text is the name of the row that brought it");
    const cup = await productOf(t, admin, 'IMG-CUP');
    assert.deepEqual(cup.media.map((m) => m.id), [mug.media[1].id], 'the same address is the same image');
    const tee = await productOf(t, admin, 'IMG-TEE');
    assert.equal(tee.media.length, 1, 'a redirect is followed');
    assert.match(tee.media[0].url, /\/photo\.jpg$/);
    const small = tee.variants.find((v) => v.sku === 'IMG-TEE-S');
    assert.deepEqual(small?.media.map((m) => m.id), [mug.media[1].id]);

    assert.equal(images.hits.get('/photo.jpg'), 2, 'photo.jpg directly, then through moved.jpg');
    assert.equal(images.hits.get('/logo.png'), 1, 'logo.png is named by three rows and fetched once');

    const served = await t.app.inject({ method: 'GET', url: mug.media[0].url });
    assert.equal(served.statusCode, 200);
    const meta = await sharp(served.rawPayload).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height, meta.exif], ['jpeg', 400, 300, undefined], 'metadata stripped');
  });

  test('when the same file is imported again, then nothing is fetched, no image is added and nothing changes', async () => {
    const before = { assets: await assetCount(t), photo: images.hits.get('/photo.jpg'), logo: images.hits.get('/logo.png') };
    const mug = await productOf(t, admin, 'IMG-MUG');
    const [{ last }] = await queryRows<{ last: number }>(t.database.db, sql`select coalesce(max(id), 0)::int as last from outbox_event`);

    const report = await imported(t.app, admin, file(images.base), { fetchImages: true });
    assert.deepEqual(report.errors, []);
    assert.deepEqual([report.created, report.updated, report.unchanged], [0, 0, 5]);
    assert.equal(await assetCount(t), before.assets);
    assert.deepEqual([images.hits.get('/photo.jpg'), images.hits.get('/logo.png')], [before.photo, before.logo]);
    assert.equal((await productOf(t, admin, 'IMG-MUG')).updatedAt, mug.updatedAt);
    const events = await queryRows(t.database.db, sql`select id from outbox_event where id > ${last}`);
    assert.deepEqual(events, []);
  });

  test("when the export of fetched images is imported, then the library's images are the same and nothing changes", async () => {
    const csvText = await exported(t.app, admin);
    assert.match(csvText, /\/media\/\d+\/photo\.jpg, \/media\/\d+\/logo\.png/, "the export names the library's addresses");
    const mug = await productOf(t, admin, 'IMG-MUG');
    const assets = await assetCount(t);
    const report = await imported(t.app, admin, csvText);
    assert.deepEqual(report.errors, []);
    assert.deepEqual([report.created, report.updated], [0, 0]);
    assert.equal(await assetCount(t), assets);
    assert.deepEqual((await productOf(t, admin, 'IMG-MUG')).media, mug.media);
  });

  test('when a cell names an image the library does not hold, then the row is refused in the Images column', async () => {
    const report = await imported(t.app, admin, csv([{ SKU: 'LIB-0', Name: 'Nothing', 'Regular price': '1.00', Images: '/media/999999/x.jpg' }]));
    assert.deepEqual(report.errors.map((e) => [e.row, e.column]), [[2, 'Images']]);
    assert.equal(report.created, 0);
  });

  test('when an address gives no image, then the row lands without it and the problem names the Images column', async () => {
    const base = images.base;
    const report = await imported(
      t.app,
      admin,
      csv([
        { SKU: 'BAD-404', Name: 'Gone', 'Regular price': '1.00', Images: `${base}/gone.jpg` },
        { SKU: 'BAD-HTML', Name: 'Page', 'Regular price': '2.00', Images: `${base}/page.jpg` },
        { SKU: 'BAD-HUGE', Name: 'Huge', 'Regular price': '3.00', Images: `${base}/huge.jpg` },
        { SKU: 'BAD-SLOW', Name: 'Slow', 'Regular price': '4.00', Images: `${base}/slow.jpg` },
        { SKU: 'BAD-HALF', Name: 'Half', 'Regular price': '5.00', Images: `${base}/photo.jpg, ${base}/gone.jpg` },
      ]),
      { fetchImages: true },
    );
    assert.equal(report.created, 5, 'every row lands');
    assert.deepEqual(
      report.errors.map((e) => [e.row, e.column]),
      [2, 3, 4, 5, 6].map((row) => [row, 'Images']),
    );
    const [gone, page, huge, slow, half] = report.errors.map((e) => e.message);
    assert.equal(gone, `"${base}/gone.jpg" answered 404`);
    assert.match(page, /page\.jpg" the file is not a JPEG, PNG, WebP, AVIF or GIF image/);
    assert.match(huge, /huge\.jpg" is over 200000 bytes/);
    assert.match(slow, /slow\.jpg" gave no image within 2000 ms/);
    assert.match(half, /gone\.jpg" answered 404/);
    const kept = await productOf(t, admin, 'BAD-HALF');
    assert.deepEqual([kept.price, kept.media, kept.images], [5, [], []], 'a row with a bad address keeps the images it had');
  });

  test('when a dry run asks for images, then they are checked and none is kept', async () => {
    const assets = await assetCount(t);
    const report = await imported(
      t.app,
      admin,
      csv([
        { SKU: 'DRY-1', Name: 'Dry', 'Regular price': '1.00', Images: `${images.base}/photo.jpg?dry` },
        { SKU: 'DRY-2', Name: 'Dry too', 'Regular price': '1.00', Images: `${images.base}/page.jpg?dry` },
      ]),
      { fetchImages: true, dryRun: true },
    );
    assert.deepEqual(report.errors.map((e) => [e.row, e.column]), [[3, 'Images']]);
    assert.match(report.errors[0].message, /the file is not a JPEG/);
    assert.equal(report.created, 2);
    assert.equal(images.hits.get('/photo.jpg?dry'), 1);
    assert.equal(await assetCount(t), assets);
  });

  test('when a file does not ask for its images, then the addresses are kept and nothing is fetched', async () => {
    const hits = images.hits.get('/logo.png');
    const report = await imported(t.app, admin, csv([{ SKU: 'URL-1', Name: 'Linked', 'Regular price': '1.00', Images: `${images.base}/logo.png` }]));
    assert.deepEqual(report.errors, []);
    const linked = await productOf(t, admin, 'URL-1');
    assert.deepEqual([linked.images, linked.media], [[`${images.base}/logo.png`], []]);
    assert.equal(images.hits.get('/logo.png'), hits);
  });
});

describe('catalog import: images by default configuration', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let images: Awaited<ReturnType<typeof imageServer>>;

  before(async () => {
    images = await imageServer();
    t = await startTestApp({ config: IMPORT_APP_CONFIG });
    admin = await adminHeaders(t.app, [5]);
  });
  after(async () => {
    await t.close();
    images.server.closeAllConnections();
    images.server.close();
  });

  test('when an address is private (a loopback address, localhost), then it is refused without a request and the row lands', async () => {
    const port = new URL(images.base).port;
    const report = await imported(
      t.app,
      admin,
      csv([
        { SKU: 'PRIV-1', Name: 'Loopback', 'Regular price': '1.00', Images: `${images.base}/photo.jpg` },
        { SKU: 'PRIV-2', Name: 'Local name', 'Regular price': '1.00', Images: `http://localhost:${port}/logo.png` },
      ]),
      { fetchImages: true },
    );
    assert.deepEqual(
      report.errors.map((e) => [e.row, e.column, e.message]),
      [
        [2, 'Images', `"${images.base}/photo.jpg" is a private address`],
        [3, 'Images', `"http://localhost:${port}/logo.png" is a private address`],
      ],
    );
    assert.equal(report.created, 2);
    assert.equal(images.hits.size, 0, 'no request reached the server');
    assert.equal(await assetCount(t), 0);
  });
});
