// Texts per locale in the back office (docs/translations.md): a Greek shop (default locale el)
// that also serves English. The product screen switches locale with one tab per served locale, a
// tab marks the texts it misses, and the product list filters the products missing a translation.
// `npm run test:e2e` (Chromium and a built admin, like back-office.e2e.ts).
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { adminHeaders, createProduct } from '../../helpers/catalog-factories.ts';
import { axeViolations, isSerious, launchChromium, missingPrerequisite } from './browser.ts';

const ADMIN = { username: 'texts@example.com', password: 'texts-password-1', name: 'Texts', roles: [5] };

const missing = missingPrerequisite();
if (missing && process.env.CI === 'true') throw new Error(`browser tests cannot run in CI: ${missing}`);

describe('texts per locale in the back office', { skip: missing ?? false }, () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let page: Page;

  before(async () => {
    t = await startTestApp({
      config: { staticUsers: [ADMIN], settings: { default_locale: 'el', locales: ['el', 'en'] } },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    // bypassCSP: only so that axe-core can be injected; the app itself runs under its CSP.
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
    await page.goto(`${base}/admin/`);
    await page.locator('input[name="username"]').fill(ADMIN.username);
    await page.locator('input[name="password"]').fill(ADMIN.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function seriousViolations(screen: string) {
    const serious = (await axeViolations(page)).filter(isSerious);
    assert.deepEqual(
      serious.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      [],
      `${screen}: no serious accessibility violation`,
    );
  }

  /** A Greek product whose English texts lack the name. */
  const greekProduct = (name: string, slug: string) =>
    createProduct(t.app, {
      name,
      description: 'Ελληνικός καφές, ψημένος στη Θεσσαλονίκη',
      translations: { en: { slug: `${slug}-en`, description: 'Greek coffee, roasted in Thessaloniki' } },
    });

  test('when the English name is filled on the product screen and saved, then the en tab no longer marks it missing', async () => {
    const product = await greekProduct('Καφές Λουμίδη', 'kafes-loumidi');
    await page.goto(`${base}/admin/#/products/${product.id}`);
    await page.getByRole('tab', { name: /^el/ }).waitFor(); // the locales are known
    const english = page.getByRole('tab', { name: /^en/ });
    await english.filter({ hasText: '1 missing' }).waitFor();
    assert.equal(await page.getByRole('tab', { name: /^el/ }).filter({ hasText: 'missing' }).count(), 0);
    await seriousViolations('the product screen with a marker');

    await english.click();
    await page.getByLabel('Name (en)').fill('Loumidis coffee');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Element updated').waitFor();
    // Saved, the list shows again; the product's screen, read again, misses no English text.
    await page.waitForURL(/#\/products$/);
    await page.goto(`${base}/admin/#/products/${product.id}`);
    await page.getByRole('tab', { name: /^el/ }).waitFor(); // the locales are known
    await page.waitForLoadState('networkidle');
    assert.equal(await page.getByRole('tab', { name: /^en/ }).filter({ hasText: 'missing' }).count(), 0);

    const headers = await adminHeaders(t.app, [5]);
    const saved = (await t.app.inject({ method: 'GET', url: `/rest/product/product/${product.id}`, headers })).json().data;
    assert.equal(saved.translations.en.name, 'Loumidis coffee');
    assert.equal(saved.name, 'Καφές Λουμίδη', 'the Greek name is the own field, unchanged');
  });

  test('when the list is filtered by a missing English translation, then only the products lacking one are listed, marked', async () => {
    const lacking = await greekProduct('Τσάι του βουνού', 'tsai-vounou');
    const complete = await createProduct(t.app, {
      name: 'Μέλι θυμαρίσιο',
      description: 'Μέλι από θυμάρι',
      translations: { en: { name: 'Thyme honey', slug: 'thyme-honey', description: 'Honey from thyme' } },
    });
    await page.goto(`${base}/admin/#/products`);
    await page.locator('.RaDatagrid-tbody tr').first().waitFor();
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('menu').getByText('Missing translation').click();
    await page.getByRole('combobox', { name: 'Missing translation' }).click();
    await page.getByRole('option', { name: 'en' }).click();
    await page.waitForURL(/missingTranslation/);
    const rows = page.locator('.RaDatagrid-tbody tr');
    // The list is asked again with the filter: the complete product leaves it.
    await rows.filter({ hasText: 'Μέλι θυμαρίσιο' }).waitFor({ state: 'detached' });
    await rows.filter({ hasText: 'Τσάι του βουνού' }).waitFor();
    await page.waitForLoadState('networkidle');
    const names = await page.locator('.RaDatagrid-tbody tr td.column-name').allInnerTexts();
    assert.ok(names.includes('Τσάι του βουνού'), names.join(', '));
    assert.ok(!names.includes('Μέλι θυμαρίσιο'), 'a product with every English text is not listed');
    assert.match(await rows.filter({ hasText: 'Τσάι του βουνού' }).innerText(), /en: Name/);
    assert.ok(lacking.id !== complete.id);
    await seriousViolations('the product list with its chips');
  });
});
