// The storefront's budgets (docs/storefront.md, "Budgets"), measured in headless Chromium over the
// demo shop served by the real service in this process:
//   - a product page's first load: JavaScript bytes (each script gzipped at level 9) ≤ 100 KB;
//   - its Largest Contentful Paint, cold (a new browser context each time, nothing cached) ≤ 1.0 s;
//   - CPU per category page on a warm process (service, render and, on PGlite, the database: all in
//     this process), by process.cpuUsage over sequential requests ≤ 20 ms;
//   - axe-core's serious or critical violations on the catalog pages at 360 px wide: 0.
// Usage: node --import tsx bench/storefront.ts  (TEST_DATABASE_URL=… for PostgreSQL; the database's
// own CPU is then in its server processes and not counted).
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { buildStorefront } from '../scripts/build-storefront.mjs';
import { seedDemoShop } from '../src/seed/seed.ts';
import { axeViolations, isSerious, launchChromium } from '../test/admin/e2e/browser.ts';
import { startTestApp } from '../test/helpers/app.ts';
import { testEngine } from '../test/helpers/database.ts';

const COLD_LOADS = 5;
const RENDERS = 60;

if (!(await buildStorefront())) throw new Error('the storefront does not build');
const t = await startTestApp();
await seedDemoShop(t.database.db, new Date(), t.app.mediaStorage);
await t.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
const product = (await t.app.inject({ url: '/rest/product/product?option.Size=XL&limit=1' })).json().data[0];
const productUrl = `${base}/en/p/${product.slug}`;
const browser = await launchChromium();

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** One cold load of a page: its scripts' gzip bytes and its LCP. */
async function coldLoad(url: string): Promise<{ jsGzipBytes: number; scripts: number; lcpMs: number }> {
  const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
  const page = await context.newPage();
  const scripts: Promise<number>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') {
      scripts.push(response.body().then((body) => gzipSync(body, { level: 9 }).length));
    }
  });
  await page.goto(url, { waitUntil: 'load' });
  const lcpMs = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          resolve(entries[entries.length - 1]?.startTime ?? Number.NaN);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
  const sizes = await Promise.all(scripts);
  await context.close();
  return { jsGzipBytes: sizes.reduce((a, b) => a + b, 0), scripts: sizes.length, lcpMs };
}

async function axeCount(page: Page, url: string): Promise<{ serious: number; all: number; ids: string[] }> {
  await page.goto(url, { waitUntil: 'load' });
  const violations = await axeViolations(page);
  return {
    serious: violations.filter(isSerious).length,
    all: violations.length,
    ids: violations.map((v) => `${v.id}:${v.impact}`),
  };
}

/** CPU ms per page over sequential requests of the URLs, after one warm-up round. */
async function renderCpu(urls: string[]): Promise<number> {
  for (const url of urls) await t.app.inject({ url });
  const before = process.cpuUsage();
  for (let i = 0; i < RENDERS; i++) {
    const res = await t.app.inject({ url: urls[i % urls.length] as string });
    if (res.statusCode !== 200) throw new Error(`${urls[i % urls.length]}: ${res.statusCode}`);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / RENDERS;
}

// Warm the media copies and the process, then measure.
await coldLoad(productUrl);
const loads: Awaited<ReturnType<typeof coldLoad>>[] = [];
for (let i = 0; i < COLD_LOADS; i++) loads.push(await coldLoad(productUrl));

const sameCategory = await renderCpu(['/en/c/kitchen']);
const categoryMix = await renderCpu([
  '/en/c/coffee',
  '/el/c/el-kafes',
  '/en/c/kitchen?option.Size=XL',
  '/en/c/tea?sort=price&page=2',
  '/en/c/machines?brand=DeLonghi',
]);

const axeContext = await browser.newContext({ viewport: { width: 360, height: 780 }, bypassCSP: true });
const axePage = await axeContext.newPage();
const axe: Record<string, Awaited<ReturnType<typeof axeCount>>> = {};
for (const [name, path] of [
  ['home', '/en'],
  ['home el', '/el'],
  ['category', '/en/c/kitchen'],
  ['category filtered', '/en/c/kitchen?option.Size=XL&inStock=1'],
  ['search', '/el/search?q=καφες'],
  ['product', `/en/p/${product.slug}`],
  ['not found', '/en/nothing-here'],
]) {
  axe[name as string] = await axeCount(axePage, `${base}${path}`);
}

await browser.close();
await t.close();

const report = {
  engine: testEngine,
  productPage: {
    url: `/en/p/${product.slug}`,
    jsGzipBytes: median(loads.map((l) => l.jsGzipBytes)),
    scripts: loads[0]?.scripts,
    lcpMsMedian: Math.round(median(loads.map((l) => l.lcpMs))),
    lcpMsRuns: loads.map((l) => Math.round(l.lcpMs)),
  },
  categoryRenderCpuMs: {
    sameUrl: Number(sameCategory.toFixed(2)),
    mixOfFive: Number(categoryMix.toFixed(2)),
  },
  axeSeriousOrCritical: Object.fromEntries(Object.entries(axe).map(([name, a]) => [name, a.serious])),
  axeOther: Object.fromEntries(Object.entries(axe).map(([name, a]) => [name, a.ids.join(' ') || '-'])),
};
console.log(JSON.stringify(report, null, 2));
