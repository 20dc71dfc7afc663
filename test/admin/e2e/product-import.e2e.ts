// The back office's product import in a real browser against the real service: a CSV chosen on
// the import screen is checked by a dry run (its report shows the row in error, whose original
// row downloads as CSV, and nothing is written), then imported; the product list's export button downloads the filtered list as the
// same CSV. `npm run test:e2e` (Chromium and a built admin).
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { call } from '../../checkout/fixtures.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { IMPORT_APP_CONFIG } from '../../import-export/import-fixtures.ts';
import { launchChromium, missingPrerequisite } from './browser.ts';

const ADMIN = { username: 'catalog@example.com', password: 'catalog-password-1', name: 'Catalog', roles: [5] };

const missing = missingPrerequisite();
if (missing && process.env.CI === 'true') throw new Error(`browser tests cannot run in CI: ${missing}`);

const FILE = [
  'SKU;Name;Regular price;Stock;Categories',
  'E2E-1;Clay pot;9,90;4;Garden > Pots',
  'E2E-2;Watering can;twelve;2;Garden',
  '',
].join('\r\n');

describe('product import screen', { skip: missing ?? false }, () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let files: string;

  before(async () => {
    t = await startTestApp({ config: { ...IMPORT_APP_CONFIG, staticUsers: [ADMIN] } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    files = await mkdtemp(join(tmpdir(), 'shop-e2e-import-'));
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await rm(files, { recursive: true, force: true });
  });

  test('when a file is checked, then imported, then the dry run wrote nothing and the import did', async () => {
    await writeFile(join(files, 'products.csv'), `\uFEFF${FILE}`);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 }, acceptDownloads: true })).newPage();
    await page.goto(`${base}/admin/`);
    await page.locator('input[name="username"]').fill(ADMIN.username);
    await page.locator('input[name="password"]').fill(ADMIN.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    await page.goto(`${base}/admin/#/productImport`);
    await page.getByLabel('CSV file').setInputFiles(join(files, 'products.csv'));
    await page.getByRole('button', { name: 'Check (dry run)' }).click();
    await page.getByText(/Dry run done: 2 of 2 rows; 1 would be created/).waitFor();
    await page.getByRole('cell', { name: 'Regular price' }).waitFor();
    const none = await call(t.app, 'GET', '/rest/product/product?sku=E2E-1', {});
    assert.equal(none.json().data.length, 0, 'the dry run wrote nothing');

    const errors = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download the rows in error' }).click();
    const errorsCsv = await readFile((await (await errors).path()) ?? '', 'utf8');
    // The failing row as the file wrote it (its header, its `;`), with what was wrong at the end.
    assert.equal(
      errorsCsv,
      '\uFEFFSKU;Name;Regular price;Stock;Categories;Import problems\r\n' +
        'E2E-2;Watering can;twelve;2;Garden;"Regular price: ""twelve"" is not a price"\r\n',
    );

    await page.getByRole('button', { name: 'Run the import' }).click();
    await page.getByText(/Import done: 2 of 2 rows; 1 created/).waitFor();
    const pot = (await call(t.app, 'GET', '/rest/product/product?sku=E2E-1', {})).json().data[0];
    assert.equal(pot.price, 9.9);

    await page.goto(`${base}/admin/#/products`);
    await page.getByText('Clay pot').waitFor();
    const exported = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const csv = await readFile((await (await exported).path()) ?? '', 'utf8');
    assert.match(csv, /E2E-1,Clay pot,1,,9\.90,/);
    await page.close();
  });
});
