// The back office in a real browser against the real service and database: log in, create a
// product, find an order placed through the API, confirm and ship it and see the stock; a
// Products-only admin's navigation; axe-core on the main screens (no serious or critical
// violation). `npm run test:e2e` (CI runs it; it fails there when Chromium or the build is missing).
// ADMIN_SCREENSHOTS=docs/admin also writes a PNG of each screen there.
import assert from 'node:assert/strict';
import { mkdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { findAdminBuild } from '../../../src/http/admin-ui.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { call, makeCustomer, makeTransport, placeOrder } from '../../checkout/fixtures.ts';
import {
  type AxeViolation,
  axeViolations,
  isSerious,
  launchChromium,
  missingPrerequisite,
} from './browser.ts';

const ADMIN = { username: 'admin@example.com', password: 'demo-admin-pw', name: 'Demo Admin', roles: [1] };
const CATALOG = {
  username: 'catalog@example.com',
  password: 'catalog-password-1',
  name: 'Catalog',
  roles: [5],
};

const SHOP_ADMIN = {
  username: 'shop-admin@example.com',
  password: 'shop-admin-password-1',
  name: 'Shop Admin',
  roles: [3],
};

const missing = missingPrerequisite();
if (missing && process.env.CI === 'true') throw new Error(`browser tests cannot run in CI: ${missing}`);
if (missing) console.log(`# back-office browser tests skipped: ${missing}`);

const screenshotDir = process.env.ADMIN_SCREENSHOTS;
if (screenshotDir) mkdirSync(screenshotDir, { recursive: true });

describe('back office in Chromium', { skip: missing ?? false }, () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  const axeReport: Record<string, AxeViolation[]> = {};

  before(async () => {
    t = await startTestApp({ config: { staticUsers: [ADMIN, CATALOG, SHOP_ADMIN] } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    const counts = Object.entries(axeReport).map(
      ([screen, violations]) =>
        `${screen}: ${violations.length} (${violations.filter(isSerious).length} serious or critical${
          violations.length ? `; ${violations.map((v) => `${v.id} ${v.impact}`).join(', ')}` : ''
        })`,
    );
    if (counts.length) console.log(`# axe violations per screen: ${counts.join('; ')}`);
  });

  async function newPage(): Promise<Page> {
    // bypassCSP: only so that axe-core can be injected; the app itself runs under its CSP.
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    return page;
  }

  async function checkScreen(page: Page, name: string) {
    await page.waitForLoadState('networkidle');
    // A notification fading out has blended colours for a moment; the screen is judged without it.
    await page.locator('.MuiSnackbar-root').waitFor({ state: 'detached', timeout: 10_000 });
    const violations = await axeViolations(page);
    axeReport[name] = violations;
    if (screenshotDir) await page.screenshot({ path: join(screenshotDir, `${name}.png`) });
    const serious = violations.filter(isSerious);
    assert.deepEqual(
      serious.map(
        (v) =>
          `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => `${n.target.join(' ')} ${n.summary ?? ''}`).join(', ')}`,
      ),
      [],
      `${name}: serious accessibility violations`,
    );
  }

  async function logIn(page: Page, user: { username: string; password: string }) {
    await page.goto(`${base}/admin/`);
    await page.locator('input[name="username"]').fill(user.username);
    await page.locator('input[name="password"]').fill(user.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  }

  async function menuLabels(page: Page): Promise<string[]> {
    // The sidebar's entries are links to the resources' lists (#/products, …).
    const links = page.locator('a[href^="#/"]');
    await links.first().waitFor();
    return (await links.allInnerTexts()).map((text) => text.trim());
  }

  test('the login page loads under 700 KB of compressed JavaScript and is accessible', async () => {
    const page = await newPage();
    const scripts: string[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('.js')) scripts.push(new URL(response.url()).pathname);
    });
    const started = Date.now();
    await page.goto(`${base}/admin/`);
    await page.locator('input[name="username"]').waitFor();
    const elapsed = Date.now() - started;
    const build = findAdminBuild() as string;
    const gzipBytes = scripts.reduce(
      (sum, path) => sum + statSync(join(build, `${path.replace(/^\/admin\//, '')}.gz`)).size,
      0,
    );
    console.log(
      `# login page: ${scripts.length} scripts, ${(gzipBytes / 1024).toFixed(0)} KB gzip, usable after ${elapsed} ms`,
    );
    assert.ok(gzipBytes <= 700 * 1024, `${gzipBytes} bytes of compressed JavaScript`);
    await checkScreen(page, 'login');
    await page.context().close();
  });

  test('log in, create a product with two variants, confirm and ship an order placed through the API, and see the stock', async () => {
    const page = await newPage();
    await logIn(page, ADMIN);
    await checkScreen(page, 'dashboard');

    // A product with a Size option and two variants, created in the form.
    await page.goto(`${base}/admin/#/products/create`);
    await page.locator('input[name="name"]').fill('E2E Mug');
    await page.locator('input[name="sku"]').fill('E2E-MUG');
    await page.locator('input[name="price"]').fill('12.5');
    await page.locator('.ra-input-options .button-add').click();
    await page.locator('input[name="options.0.name"]').fill('Size');
    await page.locator('input[name="options.0.values"]').fill('S, M');
    const addVariant = page.locator('.ra-input-variants .button-add');
    await addVariant.click();
    await addVariant.click();
    for (const [row, size, stock] of [
      [0, 'S', '4'],
      [1, 'M', '10'],
    ] as const) {
      await page.locator(`input[name="variants.${row}.sku"]`).fill(`E2E-MUG-${size}`);
      await page
        .locator('.ra-input-variants .RaSimpleFormIterator-line')
        .nth(row)
        .getByRole('combobox')
        .click();
      await page.getByRole('option', { name: size, exact: true }).click();
      await page.locator(`input[name="variants.${row}.stockQty"]`).fill(stock);
    }
    await checkScreen(page, 'product-create');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/products\/\d+$/);
    const productId = Number(page.url().split('/').pop());
    const stored = await call(t.app, 'GET', `/rest/product/variant?productId=${productId}&sort=position`, {});
    const made = stored.json().data as { id: number; sku: string; options: Record<string, string> }[];
    assert.deepEqual(
      made.map((v) => [v.sku, v.options]),
      [
        ['E2E-MUG-S', { Size: 'S' }],
        ['E2E-MUG-M', { Size: 'M' }],
      ],
    );
    const medium = made[1];
    // The product's page lists both variants.
    await page.getByText('E2E-MUG-S', { exact: true }).waitFor();
    await page.getByText('E2E-MUG-M', { exact: true }).waitFor();
    await checkScreen(page, 'product-edit');

    await page.goto(`${base}/admin/#/products`);
    await page.getByText('E2E-MUG', { exact: true }).waitFor();
    await checkScreen(page, 'products');

    // An order for two of the M variant, placed through the API by a customer.
    const transportId = await makeTransport(t.app.db);
    const customer = await makeCustomer(t.app);
    const added = await call(
      t.app,
      'POST',
      '/rest/cart/items',
      { token: customer.token },
      {
        variantId: medium.id,
        qty: 2,
      },
    );
    assert.equal(added.statusCode, 200, added.body);
    const placed = await placeOrder(t.app, { token: customer.token }, { transportId });
    assert.equal(placed.statusCode, 201, placed.body);
    const order = placed.json().data as { id: number; number: string };

    // Found in the list by its number, confirmed, shipped with tracking.
    await page.goto(`${base}/admin/#/orders`);
    await page.getByLabel('Order number').fill(order.number);
    await page.getByText(order.number, { exact: true }).click();
    await page.waitForURL(new RegExp(`#/orders/${order.id}/show$`));
    await page.getByRole('button', { name: 'Confirm' }).waitFor();
    await checkScreen(page, 'order');
    await page.getByLabel('Reason (kept in the history)').fill('Stock checked');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('button', { name: 'Ship order' }).waitFor();
    await page.getByLabel('Carrier').fill('ELTA Courier');
    await page.getByLabel('Tracking number').fill('EL123456789GR');
    await page.getByLabel('Tracking URL').fill('https://track.example.com/EL123456789GR');
    await page.getByLabel('Tracking URL').press('Enter');
    await page.getByRole('button', { name: 'Mark delivered' }).waitFor();
    await page.getByText('EL123456789GR', { exact: true }).waitFor();
    await page.getByText('Stock checked', { exact: true }).waitFor();
    await checkScreen(page, 'order-shipped');

    const admin = { token: await loginToken(ADMIN) };
    const shipped = (await call(t.app, 'GET', `/rest/order/order/${order.id}`, admin)).json().data;
    assert.equal(shipped.status, 'shipped');
    assert.deepEqual(
      shipped.shipments.map((s: Record<string, unknown>) => [s.carrier, s.trackingNumber, s.trackingUrl]),
      [['ELTA Courier', 'EL123456789GR', 'https://track.example.com/EL123456789GR']],
    );
    const variant = await call(t.app, 'GET', `/rest/product/variant/${medium.id}`, admin);
    assert.equal(variant.json().data.stockQty, 8);

    // Paid by bank transfer, then one unit comes back and goes back on the shelf.
    await page.getByLabel('Payment reference').fill('BANK-2026-42');
    await page.getByRole('button', { name: 'Mark paid' }).click();
    await page.getByRole('button', { name: 'Mark paid' }).waitFor({ state: 'detached' });
    await page.getByLabel('Return units of E2E-MUG-M').fill('1');
    await page.getByLabel('Return reason').fill('Chipped');
    await page.getByRole('button', { name: 'Refund selected units' }).click();
    await page.getByText('Chipped', { exact: true }).waitFor();
    await page.getByText('1 of 2 can be returned').waitFor();
    await checkScreen(page, 'order-returned');
    const returned = (await call(t.app, 'GET', `/rest/order/order/${order.id}`, admin)).json().data;
    assert.equal(returned.paymentStatus, 'partially_refunded');
    assert.deepEqual(
      returned.returns.map((r: { restock: boolean; lines: { qty: number }[] }) => [
        r.restock,
        r.lines[0].qty,
      ]),
      [[true, 1]],
    );
    const restocked = await call(t.app, 'GET', `/rest/product/variant/${medium.id}`, admin);
    assert.equal(restocked.json().data.stockQty, 9);

    // The product's page shows the variant's stock as the API has it.
    await page.goto(`${base}/admin/#/products/${productId}`);
    const mediumRow = page.getByRole('row').filter({ hasText: 'E2E-MUG-M' });
    await mediumRow.filter({ hasText: '9' }).waitFor();
    // The variant's own form, with its price and stock history beside it.
    await mediumRow.click();
    await page.waitForURL(new RegExp(`#/variants/${medium.id}$`));
    // react-admin shows the cached record first and then the one it reads again.
    await page.waitForFunction(
      () => (document.querySelector('input[name="stockQty"]') as HTMLInputElement | null)?.value === '9',
    );
    await page.getByRole('heading', { name: 'Price and stock history' }).waitFor();
    await checkScreen(page, 'variant-edit');

    await page.goto(`${base}/admin/#/orders`);
    await page.getByText(order.number, { exact: true }).waitFor();
    await checkScreen(page, 'orders');

    await page.goto(`${base}/admin/#/customers`);
    await page.getByText(customer.email, { exact: true }).waitFor();
    await checkScreen(page, 'customers');

    // The customer's page: addresses, the points ledger and an adjustment made by keyboard.
    await page.goto(`${base}/admin/#/customers/${customer.id}/show`);
    await page.getByRole('cell', { name: order.number, exact: true }).waitFor();
    await page.getByLabel('Points (+/−)').fill('50');
    await page.getByLabel('Reason').fill('Welcome bonus');
    await page.keyboard.press('Enter');
    await page.getByText('Welcome bonus', { exact: true }).waitFor();
    await checkScreen(page, 'customer');
    const points = await call(t.app, 'GET', `/rest/customer/customer/${customer.id}`, admin);
    assert.equal(points.json().data.loyaltyPoints, 50);

    await page.goto(`${base}/admin/#/settings`);
    await page.getByText('video_homepage_limit', { exact: true }).waitFor();
    await checkScreen(page, 'settings');

    for (const screen of [
      'categories',
      'coupons',
      'gifts',
      'transports',
      'shippingZones',
      'shippingRates',
      'taxRates',
      'reels',
      'sliders',
      'adminUsers',
      'webhooks',
      'mail',
    ]) {
      await page.goto(`${base}/admin/#/${screen}`);
      await page.locator('.RaList-main, .RaEmpty-message').first().waitFor();
      await checkScreen(page, screen);
    }

    // The audit log has the order's moves; the reports count the order.
    await page.goto(`${base}/admin/#/audit`);
    await page.getByLabel('Entity id').fill(String(order.id));
    await page.getByRole('cell', { name: 'order', exact: true }).first().waitFor();
    await checkScreen(page, 'audit');
    await page.goto(`${base}/admin/#/reports`);
    await page.getByRole('img', { name: /^Gross sales per day: \d+ periods, highest/ }).waitFor();
    await page.getByRole('cell', { name: 'E2E-MUG-M', exact: true }).waitFor();
    await checkScreen(page, 'reports');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download top products CSV' }).click();
    const csv = await (await download).path();
    assert.match(await readFile(csv, 'utf8'), /E2E-MUG-M/);
    await page.context().close();
  });

  test("a Products-only admin's navigation has no customers, orders or settings, and no e-mail shows", async () => {
    const shopper = await makeCustomer(t.app);
    const page = await newPage();
    await logIn(page, CATALOG);
    const labels = await menuLabels(page);
    assert.ok(labels.includes('Products'), labels.join(', '));
    for (const hidden of ['Orders', 'Customers', 'Coupons', 'Settings', 'Back-office users']) {
      assert.ok(!labels.includes(hidden), `${hidden} in ${labels.join(', ')}`);
    }
    // The dashboard reads no orders for this user.
    assert.equal(await page.getByText('Orders today').count(), 0);
    assert.equal(await page.getByText('Latest orders').count(), 0);
    for (const hidden of ['Reports', 'Audit log']) {
      assert.ok(!labels.includes(hidden), `${hidden} in ${labels.join(', ')}`);
    }
    // Typed addresses of customers' screens show no customer and no e-mail address.
    for (const hash of ['/customers', '/orders', '/reports', `/customers/${shopper.id}/show`]) {
      await page.goto(`${base}/admin/#${hash}`);
      await page.waitForLoadState('networkidle');
      assert.equal(await page.getByText(shopper.email).count(), 0, hash);
      assert.equal(await page.getByText(/@example\.(com|test)/).count(), 0, hash);
    }
    await page.context().close();
  });

  test('a webhook shows its signing secret once when created, and a new one when rotated', async () => {
    const page = await newPage();
    await logIn(page, ADMIN);
    await page.goto(`${base}/admin/#/webhooks/create`);
    await page.getByLabel('URL').fill('https://hooks.example.com/shop');
    await page.getByLabel(/^Events/).fill('order.placed');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/webhooks\/\d+\/show$/);
    const shown = page.getByRole('status').filter({ hasText: 'Signing secret' }).locator('code');
    const first = await shown.innerText();
    assert.match(first, /^whsec_/);

    await page.getByRole('button', { name: 'Rotate signing secret' }).click();
    await shown.filter({ hasNotText: first }).waitFor();
    const second = await shown.innerText();
    assert.match(second, /^whsec_/);
    assert.notEqual(second, first);
    await checkScreen(page, 'webhook');

    // Leaving and coming back: the secret is not shown again (the API never answers it on reads).
    await page.goto(`${base}/admin/#/webhooks`);
    await page.getByText('https://hooks.example.com/shop', { exact: true }).click();
    await page.getByRole('button', { name: 'Rotate signing secret' }).waitFor();
    assert.equal(await page.getByText('Signing secret, shown only now').count(), 0);
    await page.context().close();
  });

  test('an Admin editing a back-office user can tick only the roles it holds', async () => {
    const superuser = { token: await loginToken(ADMIN) };
    const created = await call(t.app, 'POST', '/rest/system/admin-user', superuser, {
      username: 'editor@example.com',
      password: 'editor-password-1',
      name: 'Editor',
      roles: [5],
    });
    assert.equal(created.statusCode, 201, created.body);
    const page = await newPage();
    await logIn(page, SHOP_ADMIN);
    await page.goto(`${base}/admin/#/adminUsers/${created.json().data.id}`);
    await page.getByLabel('Admin (3)').waitFor();
    assert.equal(await page.getByLabel('Admin (3)').isDisabled(), false);
    assert.equal(await page.getByLabel('Superuser (1)').isDisabled(), true);
    assert.equal(await page.getByLabel('Products (5)').isDisabled(), true);
    // Nobody sets another user's password: the user is e-mailed a code instead.
    assert.equal(await page.locator('input[name="password"]').count(), 0);
    await page.getByRole('button', { name: 'Send password reset e-mail' }).waitFor();
    await checkScreen(page, 'admin-user');
    await page.context().close();
  });

  async function loginToken(user: { username: string; password: string }): Promise<string> {
    const res = await call(
      t.app,
      'POST',
      '/rest/auth/admin/login',
      {},
      {
        username: user.username,
        password: user.password,
      },
    );
    return res.json().access_token;
  }
});
