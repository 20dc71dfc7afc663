import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { queryRows } from '../../src/db/client.ts';
import { access } from '../../src/http/access.ts';
import { requireAuditDeclaration } from '../../src/http/audit.ts';
import { Role } from '../../src/http/roles.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdmin, login, post, ROOT } from '../auth/auth-helpers.ts';
import { makeCoupon, makeCustomer, makeProduct } from '../checkout/fixtures.ts';
import { adminHeaders, createProduct } from '../helpers/catalog-factories.ts';

interface Entry {
  actor: string;
  action: string;
  entity: string;
  entityId: string;
  changes: Record<string, { before: unknown; after: unknown }>;
}

describe('audit log of back-office writes', () => {
  let t: TestApp;
  let rootToken: string;
  let admin: Record<string, string>;
  const audit = async (query: string): Promise<Entry[]> => {
    const res = await t.app.inject({ method: 'GET', url: `/rest/system/audit?${query}`, headers: admin });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };

  before(async () => {
    t = await startTestApp({ config: { staticUsers: [ROOT] } });
    rootToken = (await login(t.app, 'admin', ROOT.username, ROOT.password)).access_token;
    admin = await adminHeaders(t.app, [3]);
  });
  after(() => t.close());

  test('when a setting is set and reset, then each change is kept with the admin and the values before and after', async () => {
    const url = '/rest/system/setting/free_shipping_threshold';
    assert.equal(
      (await t.app.inject({ method: 'PUT', url, headers: admin, payload: { value: 99.5 } })).statusCode,
      200,
    );
    assert.equal(
      (await t.app.inject({ method: 'PUT', url, headers: admin, payload: { value: 99.5 } })).statusCode,
      200,
    );
    assert.equal((await t.app.inject({ method: 'DELETE', url, headers: admin })).statusCode, 200);
    const entries = await audit('entity=setting&entityId=free_shipping_threshold');
    assert.deepEqual(
      entries.map((e) => [e.actor, e.changes.value]),
      [
        ['static:t@example.com', { before: 99.5, after: 250 }],
        ['static:t@example.com', { before: 250, after: 99.5 }],
      ],
      'newest first; the write that changed nothing is not kept',
    );
  });

  test('when a refused setting write happens, then nothing is kept', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/rest/system/setting/timezone',
      headers: admin,
      payload: { value: 'Mars/Olympus_Mons' },
    });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(await audit('entity=setting&entityId=timezone'), []);
  });

  test('when a product price and stock change, then the audit shows both values (money as decimals)', async () => {
    const product = await createProduct(t.app, { price: 10, stockQty: 5 });
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/rest/product/product/${product.id}`,
      headers: await adminHeaders(t.app, [5]),
      payload: { price: 12.5, stockQty: 7 },
    });
    assert.equal(res.statusCode, 200, res.body);
    const [update, create] = await audit(`entity=product&entityId=${product.id}`);
    assert.deepEqual([create.action, create.changes.price], ['create', { before: null, after: 10 }]);
    assert.equal(update.action, 'update');
    assert.deepEqual(update.changes, {
      price: { before: 10, after: 12.5 },
      stockQty: { before: 5, after: 7 },
    });
  });

  test("when an admin's roles change, then before and after are kept; a password reset only as the fact", async () => {
    const other = await createAdmin(t.app, rootToken, { roles: [4] });
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/rest/system/admin-user/${other.id}`,
      headers: bearer(rootToken),
      payload: { roles: [4, 7] },
    });
    assert.equal(res.statusCode, 200, res.body);
    const reset = await t.app.inject({
      method: 'POST',
      url: `/rest/system/admin-user/${other.id}/password-reset`,
      headers: bearer(rootToken),
    });
    assert.equal(reset.statusCode, 202, reset.body);
    const [resetEntry, update, create] = await audit(`entity=admin_user&entityId=${other.id}`);
    assert.deepEqual(create.changes.roles, { before: null, after: [4] });
    assert.deepEqual(update.changes, { roles: { before: [4], after: [4, 7] } });
    assert.equal(resetEntry.action, 'password_reset');
    assert.deepEqual(resetEntry.changes, { password: { before: null, after: 'reset e-mail sent' } });
  });

  test('when points are adjusted, then the balance before and after and the reason are kept', async () => {
    const customer = await makeCustomer(t.app, 50);
    const res = await post(
      t.app,
      '/rest/loyalty/adjustment',
      { customerId: customer.id, delta: 25, reason: 'goodwill' },
      admin.authorization.slice('Bearer '.length),
    );
    assert.equal(res.statusCode, 200, res.body);
    const [entry] = await audit(`entity=customer&entityId=${customer.id}`);
    assert.deepEqual(entry.changes, {
      loyaltyPoints: { before: 50, after: 75 },
      reason: { before: null, after: 'goodwill' },
    });
    const refused = await post(
      t.app,
      '/rest/loyalty/adjustment',
      { customerId: customer.id, delta: -1000, reason: 'too much' },
      admin.authorization.slice('Bearer '.length),
    );
    assert.equal(refused.statusCode, 422);
    assert.equal(
      (await audit(`entity=customer&entityId=${customer.id}`)).length,
      1,
      'a refused write leaves no entry',
    );
  });

  test('when the log is paged and filtered by actor, then only that admin’s entries come; other roles get 403', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: '/rest/system/audit?limit=2&actor=static:t@example.com',
      headers: admin,
    });
    assert.equal(page.statusCode, 200);
    assert.equal(page.json().data.length, 2);
    assert.ok(page.json().pagination.total >= 4);
    const [{ n }] = await queryRows<{ n: number }>(t.app.db, sql`select count(*)::int as n from audit_log`);
    assert.ok(n >= page.json().pagination.total);
    for (const roles of [[7], [6], [2]]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/rest/system/audit',
        headers: await adminHeaders(t.app, roles),
      });
      assert.equal(res.statusCode, 403, String(roles));
    }
  });

  test("when an admin changes a customer's e-mail, disables and deletes the customer, then each write is kept with the fields before and after", async () => {
    const customer = await makeCustomer(t.app);
    const url = `/rest/customer/customer/${customer.id}`;
    const email = `renamed-${customer.id}@example.com`;
    for (const payload of [{ email }, { active: false }]) {
      const res = await t.app.inject({ method: 'PATCH', url, headers: admin, payload });
      assert.equal(res.statusCode, 200, res.body);
    }
    assert.equal((await t.app.inject({ method: 'DELETE', url, headers: admin })).statusCode, 200);
    const [removed, disabled, renamed] = await audit(`entity=customer&entityId=${customer.id}`);
    assert.deepEqual(
      [renamed.action, renamed.actor, renamed.changes],
      ['update', 'static:t@example.com', { email: { before: customer.email, after: email } }],
    );
    assert.deepEqual(
      [disabled.action, disabled.changes],
      ['update', { active: { before: true, after: false } }],
    );
    assert.equal(removed.action, 'delete');
    assert.deepEqual(removed.changes.email, { before: email, after: null });
    assert.deepEqual(removed.changes.active, { before: false, after: null });
  });

  test('when a webhook is created and its secret rotated, then the log says the secret changed and never holds it', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/rest/system/webhook',
      headers: admin,
      payload: { url: 'http://127.0.0.1:9/audit', events: ['order.placed'] },
    });
    assert.equal(created.statusCode, 201, created.body);
    const { id, secret } = created.json().data;
    const rotated = await t.app.inject({
      method: 'POST',
      url: `/rest/system/webhook/${id}/rotate-secret`,
      headers: admin,
    });
    assert.equal(rotated.statusCode, 200, rotated.body);
    const entries = await audit(`entity=webhook&entityId=${id}`);
    assert.deepEqual(
      entries.map((e) => [e.action, e.changes.secret]),
      [
        ['rotate-secret', { before: null, after: 'changed' }],
        ['create', { before: null, after: 'changed' }],
      ],
    );
    assert.equal(entries[1].changes.url.after, 'http://127.0.0.1:9/audit');
    const text = JSON.stringify(entries);
    for (const value of [secret, rotated.json().data.secret]) assert.ok(!text.includes(value));
  });

  test('when a coupon write is refused, then only its accepted writes are kept', async () => {
    const [taken, coupon] = [await makeCoupon(t.app.db), await makeCoupon(t.app.db)];
    const marketing = await adminHeaders(t.app, [8]);
    const patch = (payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'PATCH',
        url: `/rest/checkout/coupon/${coupon.id}`,
        headers: marketing,
        payload,
      });
    assert.equal((await patch({ active: false })).statusCode, 200);
    assert.equal((await patch({ code: taken.code, active: true })).statusCode, 409);
    const entries = await audit(`entity=coupon&entityId=${coupon.id}`);
    assert.deepEqual(
      entries.map((e) => e.changes),
      [{ active: { before: true, after: false } }],
    );
  });

  test('when the entry cannot be written, then the write fails and leaves nothing', async () => {
    const products = await adminHeaders(t.app, [5]);
    const productId = await makeProduct(t.app.db);
    await queryRows(
      t.app.db,
      sql.raw(`alter table audit_log add constraint refuse_product check (entity <> 'product') not valid`),
    );
    try {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/rest/product/product/${productId}`,
        headers: products,
        payload: { name: 'Never kept' },
      });
      assert.ok(res.statusCode >= 400, res.body);
    } finally {
      await queryRows(t.app.db, sql.raw('alter table audit_log drop constraint refuse_product'));
    }
    const shown = await t.app.inject({
      method: 'GET',
      url: `/rest/product/product/${productId}`,
      headers: products,
    });
    assert.notEqual(shown.json().data.name, 'Never kept');
  });

  test('when a write route an admin may call declares no audit, then the app does not start', async () => {
    const build = async (config: Record<string, unknown>) => {
      const app = Fastify({ logger: false });
      app.addHook('onRoute', requireAuditDeclaration);
      app.post('/rest/thing', { config }, async () => ({}));
      await app.ready();
      await app.close();
    };
    await assert.rejects(
      build({ access: access.admin(Role.Admin) }),
      /POST \/rest\/thing declares no config\.audit/,
    );
    await assert.rejects(build({ access: access.customerOrAdmin(Role.Admin) }), /declares no config\.audit/);
    await build({ access: access.admin(Role.Admin), audit: { entity: 'thing' } });
    await build({ access: access.customer() });
  });
});
