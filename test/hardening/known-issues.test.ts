import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer } from '../helpers/app.ts';
import { type LoggedApp, startLoggedApp } from '../helpers/hardening/app.ts';
import { adminToken, registerCustomer, ROOT } from '../helpers/hardening/fixtures.ts';
import { fetchOpenApi, operationsOf } from '../helpers/hardening/openapi.ts';

// Exact reproductions of defects the hardening scenarios found in other engineers' modules.
// A new one is `{ todo: 'reason' }` until fixed there (node:test reports a todo that passes),
// with a matching entry in test/helpers/hardening/known-issues.ts; once fixed, the `todo` and
// the entry go and the test stays as a regression guard.

describe('defects found by the hardening scenarios', () => {
  let t: LoggedApp;

  before(async () => {
    t = await startLoggedApp({ staticUsers: [ROOT] });
  });
  after(() => t?.close());

  // Found by the fuzz; fixed in the cart module.
  test('when a cart route refuses an admin token with 403, then 403 is among its documented responses', async () => {
    const ops = operationsOf(await fetchOpenApi(t.app)).filter((op) => op.path.startsWith('/rest/cart'));
    assert.ok(ops.length > 0);
    const admin = await adminToken(t.app, [1]);
    const undocumented: string[] = [];
    for (const op of ops) {
      const url = op.path.replace(/\{[^}]+\}/g, '1');
      const res = await t.app.inject({
        method: op.method as 'GET',
        url,
        headers: bearer(admin),
        payload: op.body ? {} : undefined,
      });
      if (!op.responses.has(String(res.statusCode)))
        undocumented.push(`${op.method} ${op.path} → ${res.statusCode}`);
    }
    assert.deepEqual(undocumented, []);
  });

  // Found by the fuzz (the Superuser deleted the fuzz customer); fixed in the customers/cart modules.
  test('when a deleted customer’s still-valid token writes, then the answer is 401, not 500', async () => {
    const admin = await adminToken(t.app, [1]);
    const product = await t.app.inject({
      method: 'POST',
      url: '/rest/product/product',
      headers: bearer(admin),
      payload: { name: 'Gone', sku: 'GONE-1', price: 5 },
    });
    const productId = (product.json() as { data: { id: number } }).data.id;
    const customer = await registerCustomer(t.app, 'deleted');
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/rest/customer/customer/${customer.id}`,
      headers: bearer(admin),
    });
    assert.equal(deleted.statusCode, 200);
    const statuses: string[] = [];
    for (const [url, payload] of [
      ['/rest/customer/wishlist', { productId }],
      ['/rest/cart/items', { productId, qty: 1 }],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url, headers: bearer(customer.token), payload });
      statuses.push(`${url} ${res.statusCode}`);
    }
    assert.deepEqual(statuses, ['/rest/customer/wishlist 401', '/rest/cart/items 401']);
  });
});
