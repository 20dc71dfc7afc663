// Buying in the shop website in a real browser against the real service: a guest chooses a
// variant, applies a coupon, pays by card through 3-D Secure, reads the confirmation and receives
// its e-mail over SMTP; a customer logs in, pays part with points and the rest cash on delivery
// and finds the order in the account (at 360 px wide); the language switch; the product page
// without JavaScript; axe-core on every step (no serious or critical violation).
// `npm run test:e2e` (after `npm run build:storefront`); skipped without Chromium.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { buildStorefront } from '../../../scripts/build-storefront.mjs';
import { DEMO_CUSTOMER } from '../../../src/seed/demo-shop.ts';
import { seedDemoShop } from '../../../src/seed/seed.ts';
import { axeViolations, CHROMIUM, isSerious, launchChromium } from '../../admin/e2e/browser.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { readMail, startSmtpReceiver } from '../../helpers/smtp-receiver.ts';

const missing = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM}`;
if (missing && process.env.CI === 'true') throw new Error(`browser tests cannot run in CI: ${missing}`);
if (missing) console.log(`# storefront browser tests skipped: ${missing}`);

/** STOREFRONT_SCREENSHOTS=docs/storefront also writes a PNG of each step there (the README's pictures). */
const screenshotDir = process.env.STOREFRONT_SCREENSHOTS;
if (screenshotDir) mkdirSync(screenshotDir, { recursive: true });

const jobs = {
  enabled: true,
  retryBaseMs: 50,
  retryMaxMs: 200,
  relayIntervalMs: 50,
  pollIntervalSeconds: 0.5,
};

interface Listed {
  slug: string;
  name: string;
  price: number;
  options: unknown[];
  variants: unknown[];
}

describe('buying in the shop in Chromium', { skip: missing ?? false }, () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let base: string;
  let browser: Browser;
  /** A product with options (the variant picker) and one without, both in stock. */
  let apparel: Listed;
  let plain: Listed;

  before(async () => {
    assert.ok(await buildStorefront(), 'the storefront builds');
    smtp = await startSmtpReceiver();
    t = await startTestApp({
      config: { jobs, mail: { smtpUrl: smtp.url, from: 'Shop <shop@example.com>' } },
    });
    await seedDemoShop(t.database.db, new Date(), t.app.mediaStorage);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const list = async (query: string) =>
      (await t.app.inject({ url: `/rest/product/product?${query}` })).json().data as Listed[];
    const [withOptions] = await list('option.Size=M&inStock=true&sort=id&limit=1&locale=en');
    const plainOnes = await list('inStock=true&sort=id&limit=50&with=variants&locale=en');
    assert.ok(withOptions);
    apparel = withOptions;
    const found = plainOnes.find((p) => p.variants.length === 1 && p.price > 5 && p.price < 40);
    assert.ok(found);
    plain = found;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });

  async function newPage(options: { width?: number; javaScript?: boolean } = {}): Promise<Page> {
    // bypassCSP: only so that axe-core can be injected; the shop runs under its CSP otherwise.
    const context = await browser.newContext({
      bypassCSP: true,
      javaScriptEnabled: options.javaScript ?? true,
      viewport: { width: options.width ?? 1280, height: 900 },
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    return page;
  }

  async function accessible(page: Page, name: string) {
    if (screenshotDir) await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
    const serious = (await axeViolations(page)).filter(isSerious);
    assert.deepEqual(
      serious.map(
        (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      ),
      [],
      `${name}: serious accessibility violations`,
    );
  }

  async function fillAddress(page: Page, email?: string) {
    if (email) await page.fill('#field-email', email);
    await page.fill('#field-firstName', 'Eleni');
    await page.fill('#field-lastName', 'Papadopoulou');
    await page.fill('#field-phone', '+302101234567');
    await page.fill('#field-street', 'Ermou 10');
    await page.fill('#field-city', 'Athens');
    await page.fill('#field-postalCode', '10563');
  }

  /** Checks a choice of the checkout; a change prices the form again (a new page), no change nothing. */
  async function choose(page: Page, selector: string) {
    const input = page.locator(selector);
    if (await input.isChecked()) return;
    await Promise.all([page.waitForNavigation(), input.check()]);
  }

  test('a guest searches, narrows by a facet, chooses a variant, applies a coupon, pays by card with 3-D Secure and gets the e-mail', async () => {
    const page = await newPage();
    await page.goto(`${base}/en`);
    await page.getByRole('searchbox').fill(apparel.name);
    await Promise.all([page.waitForURL(/\/en\/search\?q=/), page.getByRole('searchbox').press('Enter')]);
    const sizeM = page.getByRole('checkbox', { name: /^M\b/ });
    if (!(await sizeM.isVisible())) await page.locator('summary', { hasText: 'Filters' }).click();
    await Promise.all([page.waitForURL(/option\.Size=M/), sizeM.check()]);
    await Promise.all([
      page.waitForURL(/\/en\/p\//),
      page.locator('.card a', { hasText: apparel.name }).first().click(),
    ]);
    await page.getByRole('heading', { level: 1, name: apparel.name }).waitFor();
    // The picker (JavaScript) replaces the list of variants: choose the first value of each option.
    await page.locator('[data-picker]:not([hidden])').waitFor();
    await accessible(page, 'product');
    for (const fieldset of await page.locator('[data-picker] fieldset').all()) {
      await fieldset.locator('input[type=radio]:not([disabled])').first().check();
    }
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.waitForURL(/\/en\/cart/);
    await page
      .getByText('Added to your cart.')
      .waitFor({ timeout: 5000 })
      .catch(async (err) => {
        console.log(
          '# the page at the failure:',
          page.url(),
          (await page.locator('main').innerText()).slice(0, 500),
        );
        throw err;
      });
    await accessible(page, 'cart');

    await page.fill('#coupon-code', 'WELCOME10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Coupon WELCOME10 applied').waitFor();
    await page.getByRole('link', { name: 'Go to checkout' }).click();
    await page.waitForURL(/\/en\/checkout/);

    await fillAddress(page, 'guest.e2e@example.com');
    // Choosing card prices the form again by itself (the checkout script posts "Update totals").
    await choose(page, 'input[name=payWay][value=card]');
    assert.equal(await page.locator('#field-email').inputValue(), 'guest.e2e@example.com');
    await accessible(page, 'checkout');
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/en\/order\/SO-\d+\/pay/);
    const number = /\/order\/(SO-\d+)\//.exec(page.url())?.[1] ?? '';
    await accessible(page, 'pay');

    await page.fill('#card-number', '4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByText('Your card was declined. Try another card.').waitFor();
    await page.fill('#card-number', '4000 0025 0000 3155');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByRole('heading', { name: 'Confirm with your bank' }).waitFor();
    await page.getByRole('button', { name: 'Confirm payment' }).click();
    // The order page asks again until the provider's event has marked the order paid.
    await page
      .getByText('Payment received. Thank you!')
      .waitFor({ timeout: 30_000 })
      .catch(async (err) => {
        console.log(
          '# the page at the failure:',
          page.url(),
          (await page.locator('main').innerText()).slice(0, 600),
        );
        throw err;
      });
    await page.getByRole('heading', { name: `Order ${number}` }).waitFor();
    await accessible(page, 'confirmation');

    const mails = await smtp.messagesTo('guest.e2e@example.com', 1, 30_000);
    const subjects = mails.map((mail) => readMail(mail.raw).subject);
    assert.ok(
      subjects.some((subject) => subject.includes(number)),
      `an e-mail names the order ${number}: ${subjects.join(' | ')}`,
    );
    await page.context().close();
  });

  test('a customer logs in at 360 px, pays with points and cash on delivery, and finds the order in the account', async () => {
    const page = await newPage({ width: 360 });
    await page.goto(`${base}/en/account/login`);
    await page.fill('#login-email', DEMO_CUSTOMER.email);
    await page.fill('#login-password', DEMO_CUSTOMER.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/en\/account$/);
    await accessible(page, 'account');

    await page.goto(`${base}/en/p/${plain.slug}`);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.waitForURL(/\/en\/cart/);
    // Usable at 360 px: nothing wider than the screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(overflow <= 360, `the cart is ${overflow} px wide at 360`);
    await page.getByRole('link', { name: 'Go to checkout' }).click();
    await page.waitForURL(/\/en\/checkout/);
    await fillAddress(page);
    await choose(page, 'input[name=payWay][value=delivery]');
    await choose(page, 'input[name=redeemPoints]');
    await page.locator('[data-figure=pointsCash]').waitFor();
    const checkoutWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(checkoutWidth <= 360, `the checkout is ${checkoutWidth} px wide at 360`);
    await accessible(page, 'checkout-360');
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/en\/order\/SO-\d+$/, { timeout: 5000 }).catch(async (err) => {
      console.log(
        '# the page at the failure:',
        page.url(),
        (await page.locator('main').innerText()).slice(0, 800),
      );
      throw err;
    });
    const number = /\/order\/(SO-\d+)$/.exec(page.url())?.[1] ?? '';
    await page.getByText('Thank you for your order!').waitFor();

    await page.goto(`${base}/en/account`);
    await page.getByRole('link', { name: number }).waitFor();
    await page.context().close();
  });

  test('the language switch leads to the same page in Greek, and the product page reads without JavaScript', async () => {
    const page = await newPage({ javaScript: false });
    await page.goto(`${base}/en/p/${apparel.slug}`);
    await page.getByRole('heading', { level: 1, name: apparel.name }).waitFor();
    assert.ok(
      await page.locator('select[name=variantId]').isVisible(),
      'the variants are a list without JavaScript',
    );
    await page.getByRole('link', { name: 'Ελληνικά' }).click();
    await page.waitForURL(/\/el\/p\//);
    assert.equal(await page.getAttribute('html', 'lang'), 'el');
    await page.goto(`${base}/el/cart`);
    await page.getByRole('heading', { name: 'Το καλάθι σας' }).waitFor();
    await page.context().close();
  });
});
