// The storefront's pages as a shopper (and a search engine) reads them: server-rendered HTML
// through the service's own HTTP interface, over the demo shop, in Greek and English.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { buildStorefront } from '../../scripts/build-storefront.mjs';
import { storefrontRoutes } from '../../src/http/storefront.ts';
import { seedDemoShop } from '../../src/seed/seed.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

interface ListedProduct {
  id: number;
  slug: string;
  name: string;
  price: number;
  options: { name: string; values: string[] }[];
}

/** Visible text of an HTML fragment: tags removed, entities of the renderer decoded. */
function text(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ');
}

function linkHref(html: string, rel: string, hreflang?: string): string | undefined {
  for (const match of html.matchAll(/<link [^>]*>/g)) {
    const tag = match[0];
    if (!tag.includes(`rel="${rel}"`)) continue;
    if (hreflang && !tag.includes(`hreflang="${hreflang}"`)) continue;
    return /href="([^"]*)"/.exec(tag)?.[1];
  }
  return undefined;
}

function jsonLd(html: string): Record<string, unknown> {
  const block = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1];
  assert.ok(block, 'the page has a JSON-LD block');
  return JSON.parse(block);
}

describe('storefront pages', () => {
  let t: TestApp;
  /** A product with options and variants (Barista Wear), in both locales. */
  let apparel: { en: ListedProduct; el: ListedProduct };

  before(async () => {
    assert.ok(await buildStorefront(), 'the storefront builds');
    t = await startTestApp();
    await seedDemoShop(t.database.db, new Date(), t.app.mediaStorage);
    const find = async (locale: string) =>
      (
        await t.app.inject({ url: `/rest/product/product?option.Size=XL&sort=id&limit=1&locale=${locale}` })
      ).json().data[0] as ListedProduct;
    apparel = { en: await find('en'), el: await find('el') };
  });
  after(async () => t?.close());

  test('/ sends the shopper to their language by Accept-Language, English when none is spoken', async () => {
    const cases: [string | undefined, string][] = [
      ['el-GR,el;q=0.9,en;q=0.5', '/el'],
      ['en-US,en;q=0.9', '/en'],
      ['de-DE,de;q=0.9', '/en'],
      ['de,el;q=0.3', '/el'],
      [undefined, '/en'],
    ];
    for (const [language, location] of cases) {
      const page = await t.app.inject({ url: '/', headers: language ? { 'accept-language': language } : {} });
      assert.equal(page.statusCode, 302, String(language));
      assert.equal(page.headers.location, location, String(language));
      assert.match(String(page.headers.vary), /Accept-Language/);
    }
  });

  test('a product page is complete HTML in each language: name, price, stock, variants, images with srcset', async () => {
    for (const locale of ['en', 'el'] as const) {
      const product = apparel[locale];
      const page = await t.app.inject({ url: `/${locale}/p/${product.slug}` });
      assert.equal(page.statusCode, 200, locale);
      assert.match(String(page.headers['content-type']), /text\/html/);
      assert.match(page.body, new RegExp(`<html lang="${locale}"`));
      const visible = text(page.body);
      assert.ok(visible.includes(product.name), `${locale}: the name`);
      const price =
        locale === 'el' ? `${product.price.toFixed(2).replace('.', ',')} €` : `€${product.price.toFixed(2)}`;
      assert.ok(visible.includes(price), `${locale}: the price ${price} in ${visible.slice(0, 2000)}`);
      assert.ok(visible.includes(locale === 'el' ? 'Διαθέσιμο' : 'In stock'), `${locale}: the stock`);
      assert.ok(
        visible.includes(locale === 'el' ? 'Προσθήκη στο καλάθι' : 'Add to cart'),
        `${locale}: the button`,
      );
      // Every variant is a choice of the form that works without JavaScript.
      const choices = [...page.body.matchAll(/<option value="\d+"/g)].length;
      assert.equal(
        choices,
        product.options.reduce((n, option) => n * option.values.length, 1),
      );
      assert.match(page.body, /<img [^>]*srcset="[^"]*\?w=64 64w/);
    }
  });

  test('a product page names its canonical URL and its page in the other language', async () => {
    const en = await t.app.inject({ url: `/en/p/${apparel.en.slug}` });
    const el = await t.app.inject({ url: `/el/p/${apparel.el.slug}` });
    assert.equal(linkHref(en.body, 'canonical'), `http://localhost:80/en/p/${apparel.en.slug}`);
    assert.equal(linkHref(el.body, 'canonical'), `http://localhost:80/el/p/${apparel.el.slug}`);
    for (const page of [en, el]) {
      assert.equal(linkHref(page.body, 'alternate', 'en'), `http://localhost:80/en/p/${apparel.en.slug}`);
      assert.equal(linkHref(page.body, 'alternate', 'el'), `http://localhost:80/el/p/${apparel.el.slug}`);
      assert.equal(
        linkHref(page.body, 'alternate', 'x-default'),
        `http://localhost:80/en/p/${apparel.en.slug}`,
      );
    }
    // The breadcrumb speaks the page's language, ancestors included.
    assert.match(
      el.body,
      /<nav class="breadcrumb"[^>]*><ol><li><a href="\/el">Αρχική<\/a><\/li><li><a href="\/el\/c\/[^"]+">Κουζίνα<\/a>/,
    );
    // The language switch leads to the same product.
    assert.match(en.body, new RegExp(`<a href="/el/p/${apparel.el.slug}" hreflang="el"`));
  });

  test('a product reached by its slug of the other language is moved for good to this language’s', async () => {
    const page = await t.app.inject({ url: `/el/p/${apparel.en.slug}` });
    assert.equal(page.statusCode, 301);
    assert.equal(page.headers.location, `/el/p/${apparel.el.slug}`);
  });

  test('a product page carries schema.org Product data with price, currency and availability', async () => {
    const page = await t.app.inject({ url: `/en/p/${apparel.en.slug}` });
    const data = jsonLd(page.body);
    assert.equal(data['@type'], 'Product');
    assert.equal(data.name, apparel.en.name);
    const offers = data.offers as { price: string; priceCurrency: string; availability: string }[];
    assert.ok(offers.length > 1);
    assert.ok(offers.some((offer) => offer.price === apparel.en.price.toFixed(2)));
    assert.ok(offers.every((offer) => offer.priceCurrency === 'EUR'));
    assert.ok(
      offers.every((offer) => /^https:\/\/schema\.org\/(InStock|OutOfStock)$/.test(offer.availability)),
    );
  });

  test('home shows the slides, the products on sale with their reference price, and the newest, in each language', async () => {
    for (const [locale, words] of [
      ['en', ['Featured products', 'New arrivals', 'Lowest price in the last 30 days']],
      ['el', ['Προτεινόμενα προϊόντα', 'Νέες αφίξεις', 'Χαμηλότερη τιμή των τελευταίων 30 ημερών']],
    ] as const) {
      const page = await t.app.inject({ url: `/${locale}` });
      assert.equal(page.statusCode, 200);
      const visible = text(page.body);
      for (const word of words) assert.ok(visible.includes(word), `${locale}: ${word}`);
      const slides = (
        await t.app.inject({ url: `/rest/cms/slider?groupId=1&sort=position&locale=${locale}` })
      ).json();
      assert.ok(visible.includes(slides.data[0].title), `${locale}: the first slide`);
      assert.equal(
        linkHref(page.body, 'alternate', locale === 'en' ? 'el' : 'en'),
        `http://localhost:80/${locale === 'en' ? 'el' : 'en'}`,
      );
    }
  });

  test('a category lists its whole subtree with facet counts, and a facet narrows the list to its count', async () => {
    const kitchen = (await t.app.inject({ url: '/rest/product/category/item?slug=kitchen' })).json().data;
    const all = (
      await t.app.inject({ url: `/rest/product/product?categoryId=${kitchen.id}&limit=1` })
    ).json();
    const page = await t.app.inject({ url: '/en/c/kitchen' });
    assert.equal(page.statusCode, 200);
    const visible = text(page.body);
    assert.ok(visible.includes(`${all.pagination.total} products`), 'the total of the subtree');
    assert.ok(visible.includes('Barista Wear'), 'a subcategory');
    const xl =
      /<input type="checkbox" name="option.Size" value="XL"\/><span>XL<\/span><span class="count">\((\d+)\)/.exec(
        page.body,
      );
    assert.ok(xl, 'the Size facet with its count');
    const narrowed = await t.app.inject({ url: '/en/c/kitchen?option.Size=XL&inStock=1&sort=price' });
    const shown = text(narrowed.body);
    assert.ok(shown.includes(`${xl[1]} products`), `XL: ${xl[1]} products`);
    assert.match(narrowed.body, /<input type="checkbox" name="option.Size" value="XL" checked\/>/);
    assert.match(narrowed.body, /<option value="price" selected>/);
    // A filtered list is not the one to index; its canonical is the plain category.
    assert.match(narrowed.body, /<meta name="robots" content="noindex"/);
    assert.equal(linkHref(narrowed.body, 'canonical'), 'http://localhost:80/en/c/kitchen');
  });

  test("a category pages with storefront-config's sizes; the pager links keep the filters", async () => {
    const first = await t.app.inject({ url: '/en/c/coffee?limit=24&brand=Illy&brand=Lavazza' });
    const second = /<a href="([^"]*page=2[^"]*)"/.exec(first.body)?.[1]?.replace(/&amp;/g, '&');
    assert.ok(second, 'a link to page 2');
    assert.match(second, /brand=Illy&brand=Lavazza/);
    const page2 = await t.app.inject({ url: second });
    assert.equal(page2.statusCode, 200);
    assert.match(page2.body, /<span aria-current="page">2<\/span>/);
    // 24, 48 and 72 (the settings' listing sizes), the default chosen.
    assert.match(
      first.body,
      /<option value="24" selected>24<\/option><option value="48">48<\/option><option value="72">72<\/option>/,
    );
  });

  test('search forgives a typo and marks the words found, in Greek without accents too', async () => {
    const greek = await t.app.inject({ url: `/el/search?q=${encodeURIComponent('ελληνικος καφες')}` });
    assert.equal(greek.statusCode, 200);
    assert.match(greek.body, /<mark>Ελληνικός<\/mark> <mark>καφές<\/mark>/);
    const typo = await t.app.inject({ url: '/en/search?q=lavaza' });
    assert.ok(text(typo.body).includes('Lavazza'), 'a typo still finds Lavazza');
    const none = await t.app.inject({ url: '/en/search?q=zzzzqqqq' });
    assert.ok(text(none.body).includes('Nothing matches “zzzzqqqq”'));
  });

  test("robots.txt names the sitemap; the sitemap lists every locale's pages with their alternates", async () => {
    const robots = await t.app.inject({ url: '/robots.txt' });
    assert.equal(robots.statusCode, 200);
    assert.match(robots.body, /^Sitemap: http:\/\/localhost:80\/sitemap\.xml$/m);
    assert.match(robots.body, /^Disallow: \/el\/cart$/m);
    const map = await t.app.inject({ url: '/sitemap.xml' });
    assert.equal(map.statusCode, 200);
    assert.match(String(map.headers['content-type']), /application\/xml/);
    for (const path of [`/en/p/${apparel.en.slug}`, `/el/p/${apparel.el.slug}`, '/en/c/kitchen']) {
      assert.ok(map.body.includes(`<loc>http://localhost:80${path}</loc>`), path);
    }
    assert.ok(
      map.body.includes(
        `<xhtml:link rel="alternate" hreflang="el" href="http://localhost:80/el/p/${apparel.el.slug}"/>`,
      ),
    );
    const products = (await t.app.inject({ url: '/rest/product/product?limit=1' })).json().pagination.total;
    const productUrls = map.body.match(/<loc>[^<]*\/p\//g)?.length;
    assert.equal(productUrls, products * 2);
  });

  test('an unknown product or path answers the 404 page in the shopper’s language', async () => {
    for (const [url, words] of [
      ['/el/p/no-such-product', 'Η σελίδα δεν βρέθηκε'],
      ['/en/p/no-such-product', 'Page not found'],
      ['/en/no/such/page', 'Page not found'],
      // An address the API refuses to look up (a slug longer than any) leads nowhere too.
      [`/en/p/${'x'.repeat(170)}`, 'Page not found'],
      ['/el/c/Not_A_Slug!', 'Η σελίδα δεν βρέθηκε'],
    ]) {
      const page = await t.app.inject({ url });
      assert.equal(page.statusCode, 404, url);
      assert.match(String(page.headers['content-type']), /text\/html/);
      assert.ok(text(page.body).includes(words), url);
      assert.match(page.body, /<meta name="robots" content="noindex"/);
    }
  });

  test('pages allow scripts from the shop only; assets are hashed, compressed and kept for a year', async () => {
    const page = await t.app.inject({ url: `/en/p/${apparel.en.slug}` });
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    // The inline style sheet is allowed by the hash of its exact text, nothing else inline.
    const style = /<style>([\s\S]*?)<\/style>/.exec(page.body)?.[1];
    assert.ok(style, 'the style sheet is inline');
    assert.ok(csp.includes(`'sha256-${createHash('sha256').update(style).digest('base64')}'`), csp);
    assert.doesNotMatch(page.body, /<script(?![^>]*(\bsrc=|type="application\/(ld\+)?json"))[^>]*>/);
    const script = /<script type="module" src="([^"]+)"/.exec(page.body)?.[1];
    assert.ok(script);
    const asset = await t.app.inject({ url: script, headers: { 'accept-encoding': 'gzip' } });
    assert.equal(asset.statusCode, 200);
    assert.equal(asset.headers['content-encoding'], 'gzip');
    assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
    // The API's own answers are untouched.
    const api = await t.app.inject({ url: '/rest/product/product?limit=1' });
    assert.equal(api.statusCode, 200);
    assert.equal(api.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'");
  });

  test('without a build the shop answers 503 with the command to build it, and the API works', async () => {
    const app = Fastify();
    await app.register(storefrontRoutes, { buildDir: null });
    for (const url of ['/', '/el', '/en/p/anything', '/sitemap.xml', '/robots.txt', '/assets/x.js']) {
      const res = await app.inject({ url });
      assert.equal(res.statusCode, 503, url);
      assert.match(res.body, /npm run build:storefront/);
      assert.match(String(res.headers['cache-control']), /no-store/);
    }
    await app.close();
    assert.equal((await t.app.inject({ url: '/health/live' })).statusCode, 200);
  });
});
