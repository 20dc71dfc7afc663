// The product list of the back office over 10,000 products pages on the server: going to a later
// page asks the API for that page (page=…&limit=…) and shows that page's rows, not a slice of rows
// loaded up front. `npm run test:e2e` (Chromium and a built admin, like back-office.e2e.ts).
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { call } from '../../checkout/fixtures.ts';
import { launchChromium, missingPrerequisite } from './browser.ts';

const ADMIN = { username: 'pager@example.com', password: 'pager-password-1', name: 'Pager', roles: [5] };
const PRODUCTS = 10_000;

const missing = missingPrerequisite();
if (missing && process.env.CI === 'true') throw new Error(`browser tests cannot run in CI: ${missing}`);

describe('product list of 10,000 products', { skip: missing ?? false }, () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;

  before(async () => {
    t = await startTestApp({ config: { staticUsers: [ADMIN] } });
    await t.app.db.execute(sql`
      insert into product (sku, slug, name, description, price, stock_qty, active)
      select 'PAGE-' || lpad(g::text, 5, '0'), 'paged-product-' || g, 'Paged product ' || g,
             'Description ' || g, 100 + g, g % 30, true
      from generate_series(1, ${PRODUCTS}) g`);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('a later page is asked of the API and its rows are shown', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const asked: URLSearchParams[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/rest/product/product') asked.push(url.searchParams);
    });
    await page.goto(`${base}/admin/`);
    await page.locator('input[name="username"]').fill(ADMIN.username);
    await page.locator('input[name="password"]').fill(ADMIN.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    await page.goto(`${base}/admin/#/products`);
    const firstRow = page.locator('.RaDatagrid-tbody tr').first();
    await firstRow.waitFor();
    const total = (await call(t.app, 'GET', '/rest/product/product?limit=1', {})).json().pagination.total;
    assert.ok(total >= PRODUCTS, `${total} products`);
    const perPage = 25;
    const lastPage = Math.ceil(total / perPage);
    await page
      .getByText(`1-${perPage} of ${total.toLocaleString('en-US')}`)
      .or(page.getByText(`1-${perPage} of ${total}`))
      .first()
      .waitFor();

    // The pagination's button for the last page: the list asks the API for that page alone.
    asked.length = 0;
    const lastPageAsked = page.waitForRequest((request) => {
      const query = new URL(request.url()).searchParams;
      return request.url().includes('/rest/product/product?') && query.get('page') === String(lastPage);
    });
    await page.getByRole('button', { name: `Go to page ${lastPage}` }).click();
    const request = new URL((await lastPageAsked).url()).searchParams;
    assert.equal(request.get('limit'), String(perPage));
    assert.equal(request.get('sort'), '-id');
    await page.waitForURL(new RegExp(`page=${lastPage}`));
    assert.ok(
      asked.every((query) => Number(query.get('limit')) <= perPage),
      'no request loads more than one page',
    );

    // The rows shown are that page of the API (same sort), in order.
    const expected = (
      await call(t.app, 'GET', `/rest/product/product?page=${lastPage}&limit=${perPage}&sort=-id`, {})
    ).json().data as { sku: string }[];
    assert.ok(expected.length > 0);
    const skus = page.locator('.RaDatagrid-tbody tr td.column-sku');
    await skus.first().filter({ hasText: expected[0].sku }).waitFor();
    const shown = await skus.allInnerTexts();
    assert.deepEqual(
      shown.map((text) => text.trim()),
      expected.map((product) => product.sku),
    );
    await context.close();
  });
});
