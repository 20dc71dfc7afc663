// The back office's data and auth providers (admin/src), plain TypeScript over fetch, against a
// started service: the /rest/{domain}/{entity} convention (paging, sort, filters, q, with, any-of
// ids), writes that carry only changed fields, settings by key, token refresh and role checks.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { desc, eq, sql } from 'drizzle-orm';
import { decodeJwt, SignJWT } from 'jose';
import { createAdminClient, createAuthProvider, type SessionStore } from '../../admin/src/auth-provider.ts';
import { type ApiError, createDataProvider, listQuery } from '../../admin/src/data-provider.ts';
import { RESOURCES } from '../../admin/src/resources.ts';
import { mailMessage } from '../../src/modules/mail/mail.tables.ts';
import { startTestApp, TEST_SECRET, type TestApp } from '../helpers/app.ts';
import { call, makeCustomer, makeTransport, placeOrder } from '../checkout/fixtures.ts';

const ROOT = { username: 'root@example.com', password: 'root-password-1', name: 'Root', roles: [1] };
const PRODUCTS_ONLY = {
  username: 'catalog@example.com',
  password: 'catalog-password-1',
  name: 'Catalog',
  roles: [5],
};

function memoryStore(): SessionStore & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

describe('admin data provider against a started service', () => {
  let t: TestApp;
  let baseUrl: string;

  async function loggedIn(user: { username: string; password: string }) {
    const store = memoryStore();
    const client = createAdminClient(baseUrl, store);
    const auth = createAuthProvider(client, store);
    await auth.login(user);
    return { store, client, auth, data: createDataProvider(client) };
  }

  before(async () => {
    t = await startTestApp({ config: { staticUsers: [ROOT, PRODUCTS_ONLY] } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(async () => t.close());

  test('list parameters follow the convention: page, limit, sort, ranges, any-of, with', () => {
    const query = listQuery(RESOURCES.products, {
      pagination: { page: 2, perPage: 25 },
      sort: { field: 'price', order: 'DESC' },
      filter: { q: 'tea', price_gte: 5, categoryId: 3, id: [1, 2, 3], brand: '' },
      meta: { with: ['category'] },
    });
    assert.deepEqual(query, {
      page: '2',
      limit: '25',
      sort: '-price',
      q: 'tea',
      'price[gte]': '5',
      categoryId: '3',
      id: '1,2,3',
      with: 'category',
    });
    // Orders are the service's own routes: no sort parameter.
    assert.equal(listQuery(RESOURCES.orders, { sort: { field: 'id', order: 'ASC' } }).sort, undefined);
  });

  test('a product form saves only the locales it changed: a text kept from a disabled locale is not sent back', async () => {
    const { data: provider } = await loggedIn(ROOT);
    const setLocales = (locales: string[]) =>
      t.app.db.execute(
        sql`insert into setting (key, value) values ('locales', ${JSON.stringify(locales)}::jsonb)
            on conflict (key) do update set value = excluded.value`,
      );
    const { data: created } = await provider.create('products', {
      data: { name: 'Tea', sku: 'TR-1', price: 3, translations: { el: { name: 'Τσάι', description: '' } } },
    });
    assert.deepEqual(created.translations, { el: { name: 'Τσάι' } }, 'an empty text is none');
    await setLocales(['en']);
    try {
      const previous = created;
      // el is no longer served: the form holds its text and changes none of it.
      const { data: saved } = await provider.update('products', {
        id: created.id,
        data: { ...previous, name: 'Green tea' },
        previousData: previous,
      });
      assert.equal(saved.name, 'Green tea');
      assert.deepEqual(saved.translations, { el: { name: 'Τσάι' } }, 'kept');
    } finally {
      await setLocales(['en', 'el']);
    }
    const { data: cleared } = await provider.update('products', {
      id: created.id,
      data: { ...created, translations: { el: { name: '' } } },
      previousData: created,
    });
    assert.deepEqual(cleared.translations, {}, 'an emptied text is removed');
    await provider.delete('products', { id: created.id }); // the next test counts the products
  });

  test('products: create, list with paging, sort, search and filters, getMany, with=category, update, delete', async () => {
    const { data, auth } = await loggedIn(ROOT);
    assert.deepEqual(await auth.getPermissions(), [1]);
    assert.equal((await auth.getIdentity()).fullName, 'Root');

    const category = (await data.create('categories', { data: { name: 'Tea' } })).data;
    const made = [];
    for (const [name, price] of [
      ['Alpha green tea', 10],
      ['Beta black tea', 20],
      ['Gamma white tea', 30],
    ] as const) {
      const sku = `T-${price}`;
      const product = await data.create('products', {
        data: {
          name,
          sku,
          price,
          stockQty: price / 10,
          categoryId: category.id,
          images: [`https://img.example/${sku}.jpg`],
        },
      });
      made.push(product.data);
    }

    const firstPage = await data.getList('products', {
      pagination: { page: 1, perPage: 2 },
      sort: { field: 'price', order: 'DESC' },
      filter: {},
    });
    assert.equal(firstPage.total, 3);
    assert.deepEqual(
      firstPage.data.map((p) => p.price),
      [30, 20],
    );
    const secondPage = await data.getList('products', {
      pagination: { page: 2, perPage: 2 },
      sort: { field: 'price', order: 'DESC' },
    });
    assert.deepEqual(
      secondPage.data.map((p) => p.price),
      [10],
    );

    const searched = await data.getList('products', {
      pagination: { page: 1, perPage: 10 },
      filter: { q: 'gamma' },
    });
    assert.deepEqual(
      searched.data.map((p) => p.name),
      ['Gamma white tea'],
    );
    const ranged = await data.getList('products', {
      pagination: { page: 1, perPage: 10 },
      filter: { price_gte: 15 },
    });
    assert.equal(ranged.total, 2);
    const lowStock = await data.getList('products', {
      pagination: { page: 1, perPage: 10 },
      filter: { stockQty_lte: 1 },
    });
    assert.deepEqual(
      lowStock.data.map((p) => p.sku),
      ['T-10'],
    );

    const some = await data.getMany('products', { ids: [made[0].id, made[2].id] });
    assert.deepEqual(some.data.map((p) => p.id).sort(), [made[0].id, made[2].id].sort());

    const withCategory = await data.getOne('products', { id: made[0].id, meta: { with: ['category'] } });
    assert.equal((withCategory.data.category as { name: string }).name, 'Tea');

    // The whole record comes back from the form, read-only fields included: only changes are sent.
    const previous = withCategory.data;
    const updated = await data.update('products', {
      id: made[0].id,
      data: { ...previous, price: 12.5 },
      previousData: previous,
    });
    assert.equal(updated.data.price, 12.5);

    await data.delete('products', { id: made[1].id });
    await assert.rejects(
      data.getOne('products', { id: made[1].id }),
      (error: ApiError) => error.status === 404,
    );
  });

  test('settings are keyed by key and written with PUT', async () => {
    const { data } = await loggedIn(ROOT);
    const settings = await data.getList('settings', { pagination: { page: 1, perPage: 1000 } });
    const pageSize = settings.data.find((s) => s.key === 'video_homepage_limit');
    assert.ok(pageSize);
    assert.equal(pageSize.id, 'video_homepage_limit');
    const changed = await data.update('settings', {
      id: 'video_homepage_limit',
      data: { ...pageSize, value: 5 },
      previousData: pageSize,
    });
    assert.equal(changed.data.value, 5);
    assert.equal((await data.getOne('settings', { id: 'video_homepage_limit' })).data.value, 5);
  });

  test('points adjustments land in the ledger; sub-collections and own routes list through the same calls', async () => {
    const { data } = await loggedIn(ROOT);
    const customer = await makeCustomer(t.app);
    await data.adjustPoints(customer.id, 40, 'Goodwill');
    const ledger = await data.getManyReference('loyaltyLedger', {
      target: 'customerId',
      id: customer.id,
      pagination: { page: 1, perPage: 10 },
    });
    assert.equal(ledger.total, 1);
    assert.equal(ledger.data[0].delta, 40);
    assert.equal((await data.getOne('customers', { id: customer.id })).data.loyaltyPoints, 40);

    const hook = await data.create('webhooks', {
      data: { url: 'http://127.0.0.1:9/hook', events: ['order.placed'] },
    });
    const deliveries = await data.getManyReference('webhookDeliveries', {
      target: 'webhookId',
      id: hook.data.id,
      pagination: { page: 1, perPage: 10 },
    });
    assert.deepEqual(deliveries, { data: [], total: 0 });
    const outbox = await data.getList('mail', { pagination: { page: 1, perPage: 5 } });
    assert.ok(Array.isArray(outbox.data));
  });

  test('variants, the order moves and the reports go through the provider', async () => {
    const { data } = await loggedIn(ROOT);
    const made = await data.create('products', {
      data: {
        name: 'Provider Mug',
        sku: 'PROV-MUG',
        price: 10,
        options: [{ name: 'Size', values: ['S', 'M'] }],
        variants: [
          { sku: 'PROV-MUG-S', options: { Size: 'S' }, stockQty: 3 },
          { sku: 'PROV-MUG-M', options: { Size: 'M' }, price: 12, stockQty: 5 },
        ],
      },
    });
    const variants = await data.getManyReference('variants', {
      target: 'productId',
      id: made.data.id,
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'position', order: 'ASC' },
    });
    assert.deepEqual(
      variants.data.map((v) => [v.sku, v.price, v.stockQty]),
      [
        ['PROV-MUG-S', null, 3],
        ['PROV-MUG-M', 12, 5],
      ],
    );
    const medium = variants.data[1];
    await data.update('variants', { id: medium.id, data: { ...medium, price: 13 }, previousData: medium });
    const history = await data.getList('audit', {
      pagination: { page: 1, perPage: 10 },
      filter: { entity: 'variant', entityId: String(medium.id) },
    });
    assert.deepEqual(history.data[0].changes, { price: { before: 12, after: 13 } });

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
    const placed = await placeOrder(
      t.app,
      { token: customer.token },
      { transportId: await makeTransport(t.app.db) },
    );
    assert.equal(placed.statusCode, 201, placed.body);
    const number = placed.json().data.number as string;
    const found = await data.getList('orders', { pagination: { page: 1, perPage: 5 }, filter: { number } });
    assert.deepEqual(
      found.data.map((o) => o.number),
      [number],
    );
    const id = found.data[0].id;
    await data.transitionOrder(id, 'confirmed', 'Checked by phone');
    await data.markOrderPaid(id, 'BANK-42');
    const shipped = await data.shipOrder(id, { carrier: 'ELTA', trackingNumber: 'EL1GR' });
    assert.equal(shipped.data.status, 'shipped');
    assert.equal(shipped.data.paymentStatus, 'paid');
    const line = (shipped.data.lines as { id: number }[])[0];
    const returned = await data.returnOrderLines(id, {
      lines: [{ orderLineId: line.id, qty: 1 }],
      restock: true,
      reason: 'Too small',
    });
    assert.equal(returned.data.paymentStatus, 'partially_refunded');
    assert.equal((await data.getOne('variants', { id: medium.id })).data.stockQty, 4);
    const history2 = returned.data.statusHistory as { to: string; reason: string | null }[];
    assert.deepEqual(history2.map((h) => [h.to, h.reason]).slice(1), [
      ['confirmed', 'Checked by phone'],
      ['shipped', null],
    ]);

    const sales = await data.report('sales', { interval: 'month' });
    assert.ok((sales.data.buckets as { orders: number }[]).some((b) => b.orders >= 1));
    const csv = await data.reportCsv('top-products');
    assert.match(csv.split('\n')[0], /sku/i);
    assert.match(csv, /PROV-MUG-M/);
  });

  test('an expired access token is refreshed once and the call goes through', async () => {
    const { store } = await loggedIn(ROOT);
    const session = JSON.parse(store.items.get('shop-admin-session') as string);
    const claims = decodeJwt(session.accessToken);
    const expired = await new SignJWT({
      ctx: claims.ctx,
      typ: 'access',
      sid: claims.sid,
      roles: claims.roles,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub as string)
      .setIssuer(claims.iss as string)
      .setAudience(claims.aud as string)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 120)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .setJti(crypto.randomUUID())
      .sign(Buffer.from(TEST_SECRET, 'utf8'));
    store.setItem('shop-admin-session', JSON.stringify({ ...session, accessToken: expired }));

    const client = createAdminClient(baseUrl, store);
    const list = await createDataProvider(client).getList('categories', {
      pagination: { page: 1, perPage: 5 },
    });
    assert.ok(Array.isArray(list.data));
    assert.notEqual(client.session.accessToken, expired);
    assert.equal(
      JSON.parse(store.items.get('shop-admin-session') as string).accessToken,
      client.session.accessToken,
    );
  });

  test('a Products-only admin may not reach customers or orders, in the menu or through the API', async () => {
    const { auth, data } = await loggedIn(PRODUCTS_ONLY);
    assert.equal(await auth.canAccess({ resource: 'products', action: 'list' }), true);
    assert.equal(await auth.canAccess({ resource: 'products', action: 'edit' }), true);
    for (const resource of ['customers', 'orders', 'coupons', 'settings', 'adminUsers']) {
      assert.equal(await auth.canAccess({ resource, action: 'list' }), false, resource);
    }
    await assert.rejects(
      data.getList('customers', { pagination: { page: 1, perPage: 5 } }),
      (error: ApiError) => error.status === 403,
    );
    // The session outlives a refused call (checkError logs out on 401 only).
    await auth.checkError({ status: 403 });
    await auth.checkAuth();
  });

  test('logout ends the session and forgets it', async () => {
    const { auth, store, data } = await loggedIn(ROOT);
    await auth.logout();
    assert.deepEqual([...store.items.keys()], ['shop-admin-device'], 'only the device token stays');
    await assert.rejects(auth.checkAuth());
    await assert.rejects(
      data.getList('orders', { pagination: { page: 1, perPage: 5 } }),
      (error: ApiError) => error.status === 401,
    );
  });

  test('the device token of a login outlives logout and a reload, and goes with the next login', async () => {
    const { auth, store } = await loggedIn(ROOT);
    const device = store.items.get('shop-admin-device');
    assert.ok(device, 'the login answered a device token');
    await auth.logout();
    const reloaded = createAdminClient(baseUrl, store);
    const sent: (string | null)[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      if (input instanceof Request && input.url.endsWith('/rest/auth/admin/login'))
        sent.push(input.headers.get('x-device-token'));
      return realFetch(input, init);
    };
    try {
      await createAuthProvider(reloaded, store).login(ROOT);
    } finally {
      globalThis.fetch = realFetch;
    }
    assert.deepEqual(sent, [device]);
    assert.notEqual(store.items.get('shop-admin-device'), device, 'each login answers a new one');
  });

  test('when a back-office user is sent a password reset, then its owner chooses the password with the code and logs in with it', async () => {
    const { data } = await loggedIn(ROOT);
    const username = `owner-${Date.now()}@example.com`;
    const created = await data.create('adminUsers', { data: { username, roles: [5], name: 'Owner' } });
    const codeOf = async () => {
      const [mail] = await t.app.db
        .select()
        .from(mailMessage)
        .where(eq(mailMessage.toAddress, username))
        .orderBy(desc(mailMessage.id));
      return /^([A-Za-z0-9_-]{43})$/m.exec(mail?.textBody ?? '')?.[1] ?? '';
    };
    const invitation = await codeOf();
    await data.sendAdminPasswordReset(created.data.id);
    const reset = await codeOf();
    assert.notEqual(reset, invitation);
    const anonymous = createDataProvider(createAdminClient(baseUrl, memoryStore()));
    await assert.rejects(
      anonymous.chooseAdminPassword(invitation, 'owner-password-1'),
      (error: ApiError) => error.code === 'TOKEN_INVALID',
      'the newer code voids the invitation',
    );
    await anonymous.chooseAdminPassword(reset, 'owner-password-1');
    const owner = await loggedIn({ username, password: 'owner-password-1' });
    assert.deepEqual(await owner.auth.getPermissions(), [5]);
  });
});
