// The back office's Promotions screen in a real browser against the real service: a marketing
// admin schedules a percentage promotion, pauses it, and reads the list's usage columns (orders
// and discount given) after an order used another promotion; axe-core finds no serious or
// critical violation on the list and the form. `npm run test:e2e` (Chromium and a built admin).
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  adminToken,
  call,
  fillCart,
  makeProduct,
  makeTransport,
  placeOrder,
} from '../../checkout/fixtures.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { axeViolations, isSerious, launchChromium, missingPrerequisite } from './browser.ts';

const MARKETING = {
  username: 'marketing@example.com',
  password: 'marketing-pw-1',
  name: 'Marketing',
  roles: [8],
};

const missing = missingPrerequisite();
if (missing && process.env.CI === 'true') throw new Error(`browser tests cannot run in CI: ${missing}`);

type Json = Record<string, unknown>;

describe('promotions screen', { skip: missing ?? false }, () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let page: Page;

  before(async () => {
    t = await startTestApp({ config: { staticUsers: [MARKETING] } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    // bypassCSP: only so that axe-core can be injected; the app itself runs under its CSP.
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1400, height: 1000 } });
    page = await context.newPage();
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    await page.goto(`${base}/admin/`);
    await page.locator('input[name="username"]').fill(MARKETING.username);
    await page.locator('input[name="password"]').fill(MARKETING.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function expectAccessible(name: string) {
    await page.waitForLoadState('networkidle');
    await page.locator('.MuiSnackbar-root').waitFor({ state: 'detached', timeout: 10_000 });
    const serious = (await axeViolations(page)).filter(isSerious);
    assert.deepEqual(
      serious.map(
        (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      ),
      [],
      `${name}: serious accessibility violations`,
    );
  }

  async function stored(name: string): Promise<Json> {
    const token = await adminToken(t.app, [8]);
    const res = await call(t.app, 'GET', `/rest/checkout/promotion?q=${encodeURIComponent(name)}`, { token });
    const found = (res.json().data as Json[]).find((p) => p.name === name);
    assert.ok(found, `${name} is stored`);
    return found;
  }

  /** The cells of the list row whose name cell is `name`, in column order. */
  async function rowCells(name: string): Promise<string[]> {
    const row = page.locator('tbody tr', { has: page.getByText(name, { exact: true }) });
    return (await row.locator('td').allInnerTexts()).map((cell) => cell.trim());
  }

  async function columnOf(header: string): Promise<number> {
    const headers = (await page.locator('thead th').allInnerTexts()).map((h) => h.trim());
    const at = headers.indexOf(header);
    assert.ok(at >= 0, `the list has a column ${header}: ${headers.join(' | ')}`);
    return at;
  }

  test('when a percentage promotion is scheduled, then it is stored with its window and not running', async () => {
    await page.goto(`${base}/admin/#/promotions/create`);
    // The default locale's field: its label is "Name (en)" once the shop's locales have loaded.
    await page.locator('input[name="name"]').fill('Spring sale');
    await page.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: /Catalog sale/ }).click();
    await page.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'Percent off' }).click();
    await page.getByLabel('Percent off').fill('20');
    await page.getByLabel('Starts').fill('2031-03-01T09:00');
    await page.getByLabel('Ends').fill('2031-03-08T09:00');
    await expectAccessible('promotion-create');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/promotions(\/\d+)?$/);

    const promotion = await stored('Spring sale');
    assert.deepEqual(
      [promotion.kind, promotion.action, promotion.active, promotion.usedCount],
      ['catalog', { type: 'percent', value: 20 }, true, 0],
    );
    // The browser's local time is the service's here, so the instants are the ones typed.
    assert.equal(new Date(String(promotion.startsAt)).getTime(), new Date('2031-03-01T09:00').getTime());
    assert.equal(new Date(String(promotion.endsAt)).getTime(), new Date('2031-03-08T09:00').getTime());
  });

  test('when the scheduled promotion is paused, then it is stored inactive and the list says so', async () => {
    const { id } = await stored('Spring sale');
    await page.goto(`${base}/admin/#/promotions/${id}`);
    const activeSwitch = page.getByLabel('Active (off: paused)');
    await activeSwitch.waitFor();
    assert.equal(await activeSwitch.isChecked(), true);
    await activeSwitch.uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/promotions$/);
    assert.equal((await stored('Spring sale')).active, false);
    await page.getByText('Spring sale', { exact: true }).waitFor();
    const active = await columnOf('Active');
    const cell = page
      .locator('tbody tr', { has: page.getByText('Spring sale', { exact: true }) })
      .locator('td')
      .nth(active);
    assert.equal(await cell.locator('[data-testid="false"]').count(), 1, 'shown as not active');
  });

  test('when an order used a promotion, then the list shows its orders and the discount it gave', async () => {
    const token = await adminToken(t.app, [8]);
    const created = await call(
      t.app,
      'POST',
      '/rest/checkout/promotion',
      { token },
      {
        name: 'Five off',
        kind: 'cart',
        action: { type: 'fixed', value: 5 },
        usageLimit: 100,
      },
    );
    assert.equal(created.statusCode, 201, created.body);
    const product = await makeProduct(t.app.db, { price: 4000 });
    const transportId = await makeTransport(t.app.db, { price: 0 });
    const cart = await fillCart(t.app, {}, [[product, 1]]);
    const placed = await placeOrder(t.app, cart, { transportId, email: 'buyer@example.com' });
    assert.equal(placed.statusCode, 201, placed.body);

    // Already on the list since the pause: a reload reads the promotions again.
    await page.goto(`${base}/admin/#/promotions`);
    await page.reload();
    await page.getByText('Five off', { exact: true }).waitFor();
    const [orders, discount] = [await columnOf('Orders'), await columnOf('Discount given')];
    const five = await rowCells('Five off');
    const spring = await rowCells('Spring sale');
    assert.deepEqual([five[orders], five[discount]], ['1', '5.00']);
    assert.deepEqual([spring[orders], spring[discount]], ['0', '0.00']);
    await expectAccessible('promotions');
  });
});
