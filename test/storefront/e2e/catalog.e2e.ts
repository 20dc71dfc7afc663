// The shop's catalog in a real browser (headless Chromium) against the real service over the demo
// shop, at a phone's width: search, a facet, the product page and its variant picker, the language
// switch, the product page with JavaScript off, and axe-core on every catalog page (no serious or
// critical violation). `npm run test:e2e` (CI runs it; it fails there when Chromium is missing).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { buildStorefront } from '../../../scripts/build-storefront.mjs';
import { seedDemoShop } from '../../../src/seed/seed.ts';
import { axeViolations, CHROMIUM, isSerious, launchChromium } from '../../admin/e2e/browser.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';

const missing = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install -y chromium)`;
if (missing && process.env.CI === 'true') throw new Error(`browser tests cannot run in CI: ${missing}`);
if (missing) console.log(`# storefront browser tests skipped: ${missing}`);

/** The narrowest phone the shop is made for. */
const PHONE = { width: 360, height: 780 };

describe('storefront catalog in Chromium', { skip: missing ?? false }, () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;

  before(async () => {
    assert.ok(await buildStorefront(), 'the storefront builds');
    t = await startTestApp();
    await seedDemoShop(t.database.db, new Date(), t.app.mediaStorage);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function newPage(options: { javaScript?: boolean } = {}): Promise<Page> {
    // bypassCSP: only so that axe-core can be injected; the shop itself runs under its CSP.
    const context = await browser.newContext({
      bypassCSP: true,
      viewport: PHONE,
      javaScriptEnabled: options.javaScript ?? true,
      locale: 'en-GB',
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => assert.fail(`page error: ${error.message}`));
    return page;
  }

  async function assertAccessible(page: Page, name: string) {
    const serious = (await axeViolations(page)).filter(isSerious);
    assert.deepEqual(
      serious.map(
        (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      ),
      [],
      name,
    );
    // Nothing wider than the phone: no sideways scrolling of the page.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${name}: the page is ${overflow}px wider than the screen`);
  }

  test('search, narrow by a facet, choose a variant, switch to Greek: at 360 px, accessible', async () => {
    const page = await newPage();
    await page.goto(`${base}/`);
    assert.equal(new URL(page.url()).pathname, '/en');
    await assertAccessible(page, 'home');

    await page.getByRole('searchbox').fill('apron');
    await page.getByRole('searchbox').press('Enter');
    await page.waitForURL(/\/en\/search\?q=apron/);
    assert.ok((await page.locator('main mark').count()) > 0, 'the words found are marked');
    await assertAccessible(page, 'search');

    // On a phone the filters are folded away until asked for.
    const xlBox = page.getByRole('checkbox', { name: /^XL/ });
    assert.equal(await xlBox.isVisible(), false, 'the filters are folded');
    await page.locator('summary', { hasText: 'Filters' }).click();
    // A facet applies as soon as it is ticked (the listing script sends the form).
    const xl = page.getByRole('checkbox', { name: /^XL/ });
    const count = Number(/\((\d+)\)/.exec((await xl.locator('xpath=..').textContent()) ?? '')?.[1]);
    await Promise.all([page.waitForURL(/option\.Size=XL/), xl.check()]);
    assert.equal(await page.getByRole('status').textContent(), `${count} products`);
    assert.ok(await page.getByRole('checkbox', { name: /^XL/ }).isChecked());

    await Promise.all([page.waitForURL(/\/en\/p\//), page.locator('.card a').first().click()]);
    await assertAccessible(page, 'product');
    // The picker replaces the list of variants; XL costs more, and the form posts that variant.
    const price = page.locator('[data-price]');
    await page.getByRole('radio', { name: 'S', exact: true }).check();
    const small = await price.textContent();
    await page.getByRole('radio', { name: 'XL' }).check();
    assert.notEqual(await price.textContent(), small, 'the XL price is shown');
    const chosen = await page.locator('[data-variant-select]').inputValue();
    const variant = (await t.app.inject({ url: `/rest/product/variant/${chosen}` })).json().data;
    assert.equal(variant.options.Size, 'XL');
    // Combinations no variant in stock has cannot be chosen.
    const variants = (
      await t.app.inject({ url: `/rest/product/variant?productId=${variant.productId}&limit=100` })
    ).json().data as { options: Record<string, string>; inStock: boolean }[];
    for (const colour of new Set(variants.map((v) => v.options.Colour))) {
      const available = variants.some(
        (v) => v.options.Size === 'XL' && v.options.Colour === colour && v.inStock,
      );
      const radio = page.getByRole('radio', { name: String(colour) });
      assert.equal(await radio.isDisabled(), !available, `XL ${colour}`);
    }

    await Promise.all([page.waitForURL(/\/el\/p\//), page.getByRole('link', { name: 'Ελληνικά' }).click()]);
    assert.equal(await page.locator('html').getAttribute('lang'), 'el');
    assert.ok(await page.getByRole('button', { name: 'Προσθήκη στο καλάθι' }).isVisible());
    await assertAccessible(page, 'product (el)');
  });

  test('a category page is usable by keyboard and accessible', async () => {
    const page = await newPage();
    await page.goto(`${base}/en/c/kitchen`);
    await assertAccessible(page, 'category');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    // Sorting by keyboard applies at once and keeps the focus on the sort.
    await page.getByRole('combobox', { name: 'Sort by' }).focus();
    await Promise.all([page.waitForURL(/sort=price/), page.keyboard.press('ArrowDown')]);
    assert.equal(
      await page.evaluate(() => (document.activeElement as HTMLSelectElement | null)?.name),
      'sort',
    );
  });

  test('with JavaScript off the product page is readable and its form still chooses a variant', async () => {
    const page = await newPage({ javaScript: false });
    const product = (await t.app.inject({ url: '/rest/product/product?option.Size=XL&limit=1' })).json()
      .data[0];
    await page.goto(`${base}/en/p/${product.slug}`);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), product.name);
    assert.ok(await page.locator('[data-price]').isVisible());
    const select = page.getByRole('combobox', { name: 'Choose the options' });
    assert.ok(await select.isVisible(), 'the list of variants');
    assert.equal(await page.locator('[data-picker]').isVisible(), false);
    assert.ok(await page.getByRole('button', { name: 'Add to cart' }).isEnabled());
    // axe-core needs JavaScript: the same page with the shop's own scripts refused instead.
    const withoutShopScripts = await newPage();
    await withoutShopScripts.route('**/assets/*.js', (route) => route.abort());
    await withoutShopScripts.goto(`${base}/en/p/${product.slug}`);
    assert.ok(await withoutShopScripts.getByRole('combobox', { name: 'Choose the options' }).isVisible());
    await assertAccessible(withoutShopScripts, 'product without JavaScript');
  });
});
