import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { call, fillCart, makeCoupon, makeProduct } from '../checkout/fixtures.ts';

interface CartData {
  lines: { productId: number; qty: number }[];
  couponCode: string | null;
}

async function register(t: TestApp, email: string) {
  const res = await call(
    t.app,
    'POST',
    '/rest/auth/customer/register',
    {},
    {
      email,
      password: 'a-good-password',
      firstName: 'Ada',
      lastName: 'Lovelace',
    },
  );
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as { access_token: string };
}

function login(t: TestApp, email: string, cart?: string) {
  return call(
    t.app,
    'POST',
    '/rest/auth/customer/login',
    { cart },
    { username: email, password: 'a-good-password' },
  );
}

describe('cart merge at customer login', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => t.close());

  test('when a customer logs in with X-Cart-Token, then the guest lines join theirs (summed, lowered to cart_max_line_qty, 100) and the guest cart is gone', async () => {
    const [a, b, c] = [await makeProduct(t.app.db), await makeProduct(t.app.db), await makeProduct(t.app.db)];
    const email = `merge-${Date.now()}@example.com`;
    const { access_token } = await register(t, email);
    await fillCart(t.app, { token: access_token }, [
      [a, 2],
      [b, 90],
    ]);
    const coupon = await makeCoupon(t.app.db);
    const guest = await fillCart(t.app, {}, [
      [a, 3],
      [b, 20],
      [c, 1],
    ]);
    await call(t.app, 'POST', '/rest/cart/coupon', guest, { code: coupon.code });

    const res = await login(t, email, guest.cart);
    assert.equal(res.statusCode, 200);
    const token = (res.json() as { access_token: string }).access_token;
    const cart = (await call(t.app, 'GET', '/rest/cart', { token })).json().data as CartData;
    const qty = Object.fromEntries(cart.lines.map((l) => [l.productId, l.qty]));
    assert.deepEqual(
      qty,
      { [a]: 5, [b]: 100, [c]: 1 },
      'a merge lowers a line to the cap; it never refuses the login',
    );
    assert.equal(cart.couponCode, coupon.code, "the guest's coupon is kept when the customer had none");

    const old = await call(t.app, 'GET', '/rest/cart', guest);
    assert.equal((old.json().data as CartData).lines.length, 0, 'the guest token no longer finds a cart');
  });

  test('when the login carries no or an unknown token, then the customer cart is untouched', async () => {
    const a = await makeProduct(t.app.db);
    const email = `merge-none-${Date.now()}@example.com`;
    const { access_token } = await register(t, email);
    await fillCart(t.app, { token: access_token }, [[a, 1]]);
    for (const cart of [undefined, 'C'.repeat(43)]) {
      const res = await login(t, email, cart);
      assert.equal(res.statusCode, 200);
    }
    const lines = (await call(t.app, 'GET', '/rest/cart', { token: access_token })).json().data.lines;
    assert.deepEqual(
      lines.map((l: { qty: number }) => l.qty),
      [1],
    );
  });

  test('when the password is wrong, then nothing is merged', async () => {
    const a = await makeProduct(t.app.db);
    const email = `merge-wrong-${Date.now()}@example.com`;
    await register(t, email);
    const guest = await fillCart(t.app, {}, [[a, 4]]);
    const res = await call(t.app, 'POST', '/rest/auth/customer/login', guest, {
      username: email,
      password: 'wrong-password',
    });
    assert.equal(res.statusCode, 401);
    const still = await call(t.app, 'GET', '/rest/cart', guest);
    assert.equal(still.json().data.itemCount, 4);
    const count = await t.app.db.execute(
      sql`select count(*)::int as n from cart where customer_id is not null and id in (select cart_id from cart_line where product_id = ${a})`,
    );
    assert.equal((count as unknown as { rows: { n: number }[] }).rows[0].n, 0);
  });
});
