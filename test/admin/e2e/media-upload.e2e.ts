// The back office's image upload in a real browser against the real service: on a product's
// screen, two images chosen at once are uploaded (progress shown), put in another order, given
// an alt text and saved; the product then reads them back in that order, and the media library
// lists the image with its product. `npm run test:e2e` (Chromium and a built admin).
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { call } from '../../checkout/fixtures.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProduct } from '../../helpers/catalog-factories.ts';
import { launchChromium, missingPrerequisite } from './browser.ts';

const ADMIN = { username: 'media@example.com', password: 'media-password-1', name: 'Media', roles: [5, 9] };

const missing = missingPrerequisite();
if (missing && process.env.CI === 'true') throw new Error(`browser tests cannot run in CI: ${missing}`);

const solid = (r: number, g: number, b: number, width: number) =>
  sharp({ create: { width, height: 300, channels: 3, background: { r, g, b } } })
    .jpeg()
    .toBuffer();

describe('image upload on the product screen', { skip: missing ?? false }, () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let files: string;

  before(async () => {
    t = await startTestApp({ config: { staticUsers: [ADMIN] } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    files = await mkdtemp(join(tmpdir(), 'shop-e2e-media-'));
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await rm(files, { recursive: true, force: true });
  });

  test('when two images are uploaded, reordered and described, then the product shows them so', async () => {
    const product = await createProduct(t.app, { name: 'Lamp' });
    await writeFile(join(files, 'red.jpg'), await solid(200, 20, 20, 400));
    await writeFile(join(files, 'blue.jpg'), await solid(20, 20, 200, 500));
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
    await page.goto(`${base}/admin/`);
    await page.locator('input[name="username"]').fill(ADMIN.username);
    await page.locator('input[name="password"]').fill(ADMIN.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    await page.goto(`${base}/admin/#/products/${product.id}`);
    await page.getByLabel('Upload images').setInputFiles([join(files, 'red.jpg'), join(files, 'blue.jpg')]);
    await page.getByLabel('Alt text of image 2').waitFor();
    assert.equal(await page.getByRole('status').count(), 2, 'one progress line per file');
    await page.getByLabel('Move image 2 up').click();
    await page.getByLabel('Alt text of image 1').fill('A blue lamp');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/products$/);

    const saved = (await call(t.app, 'GET', `/rest/product/product/${product.id}`, {})).json().data;
    const media = saved.media as { url: string; alt: string; width: number }[];
    assert.deepEqual(
      media.map((m) => [m.width, m.alt]),
      [
        [500, 'A blue lamp'],
        [400, ''],
      ],
    );
    assert.deepEqual(
      saved.images,
      media.map((m) => m.url),
    );

    await page.goto(`${base}/admin/#/media`);
    await page.getByText(`product ${product.id}`).first().waitFor();
    await page.close();
  });
});
