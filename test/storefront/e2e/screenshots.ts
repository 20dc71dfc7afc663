// Screenshots of the storefront's catalog pages over the demo shop, for the README:
// node --import tsx test/storefront/e2e/screenshots.ts docs/storefront
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { buildStorefront } from '../../../scripts/build-storefront.mjs';
import { seedDemoShop } from '../../../src/seed/seed.ts';
import { launchChromium } from '../../admin/e2e/browser.ts';
import { startTestApp } from '../../helpers/app.ts';

const dir = process.argv[2] ?? 'docs/storefront';
mkdirSync(dir, { recursive: true });
if (!(await buildStorefront())) throw new Error('the storefront does not build');
const t = await startTestApp();
await seedDemoShop(t.database.db, new Date(), t.app.mediaStorage);
await t.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
const product = (
  await t.app.inject({ url: '/rest/product/product?option.Size=XL&onSale=true&limit=1' })
).json().data[0];
const browser = await launchChromium();
const shots: [string, string, { width: number; height: number }][] = [
  ['home', '/en', { width: 1280, height: 900 }],
  ['category', '/en/c/kitchen?option.Size=XL', { width: 1280, height: 900 }],
  ['search', `/el/search?q=${encodeURIComponent('ελληνικος καφες')}`, { width: 1280, height: 900 }],
  ['product', `/en/p/${product.slug}`, { width: 1280, height: 900 }],
  ['product-phone', `/el/p/${product.slug}`, { width: 360, height: 780 }],
  ['category-phone', '/en/c/kitchen', { width: 360, height: 780 }],
];
for (const [name, path, viewport] of shots) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
  await page.screenshot({ path: join(dir, `${name}.png`) });
  await context.close();
}
await browser.close();
await t.close();
