// Screenshots of the back office's main screens over the demo shop, for docs/admin and the README:
// `npm run admin:screenshots` (needs Chromium and a built admin, like the browser tests).
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { seedDemoShop } from '../../../src/seed/seed.ts';
import { startTestApp } from '../../helpers/app.ts';
import { call, fillCart, makeCustomer, placeOrder } from '../../checkout/fixtures.ts';
import { launchChromium, missingPrerequisite } from './browser.ts';

const OUT = process.argv[2] ?? 'docs/admin';
const ADMIN = { username: 'admin@example.com', password: 'demo-admin-pw', name: 'Demo Admin', roles: [1] };

const missing = missingPrerequisite();
if (missing) throw new Error(`cannot take screenshots: ${missing}`);
mkdirSync(OUT, { recursive: true });

const t = await startTestApp({ config: { staticUsers: [ADMIN] } });
await seedDemoShop(t.app.db);
await t.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;

// A few orders, so that the dashboard and the order list have something to show.
const transports = (await call(t.app, 'GET', '/rest/checkout/transport')).json().data as { id: number }[];
const products = (await call(t.app, 'GET', '/rest/product/product?limit=6')).json().data as { id: number }[];
for (let i = 0; i < 3; i++) {
  const customer = await makeCustomer(t.app);
  await fillCart(t.app, { token: customer.token }, [
    [products[i].id, 1],
    [products[i + 3].id, 2],
  ]);
  await placeOrder(t.app, { token: customer.token }, { transportId: transports[0].id });
}

// The first order confirmed and shipped, so its page shows a history and a shipment, and the audit log has entries.
const login = await call(
  t.app,
  'POST',
  '/rest/auth/admin/login',
  {},
  {
    username: ADMIN.username,
    password: ADMIN.password,
  },
);
const admin = { token: login.json().access_token as string };
await call(t.app, 'POST', '/rest/order/order/1/transition', admin, {
  to: 'confirmed',
  reason: 'Paid by card',
});
await call(t.app, 'POST', '/rest/order/order/1/shipment', admin, {
  carrier: 'ELTA Courier',
  trackingNumber: 'EL123456789GR',
  trackingUrl: 'https://track.example.com/EL123456789GR',
});

const browser = await launchChromium();
const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
const shoot = async (name: string, hash: string, ready: string) => {
  await page.goto(`${base}/admin/#${hash}`);
  await page.locator(ready).first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.screenshot({
    path: join(OUT, `${name}.png`),
    fullPage: name === 'order' || name === 'product-variants',
  });
  console.log(`${OUT}/${name}.png`);
};

await shoot('login', '/login', 'input[name="username"]');
await page.locator('input[name="username"]').fill(ADMIN.username);
await page.locator('input[name="password"]').fill(ADMIN.password);
await page.keyboard.press('Enter');
await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
await shoot('dashboard', '/', 'h1');
await shoot('products', '/products', '.RaList-main');
await shoot('product-edit', `/products/${products[0].id}`, 'input[name="name"]');
const withOptions = (await call(t.app, 'GET', '/rest/product/product?q=barista&limit=1')).json().data as {
  id: number;
}[];
if (withOptions[0]) {
  await shoot('product-variants', `/products/${withOptions[0].id}`, 'section[aria-label="Variants"] tr td');
}
await shoot('categories', '/categories', 'nav[aria-label="Category tree"] li');
await shoot('orders', '/orders', '.RaList-main');
await shoot('order', '/orders/1/show', 'text=VAT breakdown');
await shoot('customers', '/customers', '.RaList-main');
await shoot('settings', '/settings', '.RaList-main');
await shoot('reports', '/reports', 'svg[role="img"]');
await shoot('audit', '/audit', '.RaList-main, .RaEmpty-message');

await browser.close();
await t.close();
