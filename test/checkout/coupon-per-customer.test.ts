import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { testEngine } from '../helpers/database.ts';
import { registerCustomer, uniqueEmail } from '../auth/auth-helpers.ts';
import {
  call,
  fillCart,
  makeCoupon,
  makeCustomer,
  makeProduct,
  makeTransport,
  placeOrder,
} from './fixtures.ts';

// perCustomerLimit counts a customer's orders and the guest orders placed with the account's e-mail
// (any case), whichever came first.

describe(`coupon perCustomerLimit across guest and customer orders (${testEngine})`, () => {
  let t: TestApp;
  let transportId: number;
  let productId: number;

  before(async () => {
    t = await startTestApp();
    transportId = await makeTransport(t.app.db, { price: 0 });
    productId = await makeProduct(t.app.db, { stockQty: 1000 });
  });
  after(async () => t.close());

  const redemptions = async (couponId: number) =>
    (
      await queryRows<{ n: number }>(
        t.app.db,
        sql`select count(*)::int as n from coupon_redemption where coupon_id = ${couponId}`,
      )
    )[0].n;

  async function guestOrder(code: string, email: string) {
    const guest = await fillCart(t.app, {}, [[productId, 1]]);
    assert.equal((await call(t.app, 'POST', '/rest/cart/coupon', guest, { code })).statusCode, 200);
    return placeOrder(t.app, guest, { transportId, email });
  }

  async function customerCartWithCoupon(customer: { id: number; token: string }, code: string) {
    const me = { token: customer.token };
    await fillCart(t.app, me, [[productId, 1]]);
    // Put the code in the cart directly, as if applied before the other order: place-order must still refuse.
    await t.app.db.execute(sql`update cart set coupon_code = ${code} where customer_id = ${customer.id}`);
    return me;
  }

  test('when a guest used the coupon with the e-mail of an account, then that customer is refused at the cart and at place-order', async () => {
    const coupon = await makeCoupon(t.app.db, { perCustomerLimit: 1 });
    const ada = await makeCustomer(t.app);
    assert.equal((await guestOrder(coupon.code, ada.email.toUpperCase())).statusCode, 201);

    const me = { token: ada.token };
    await fillCart(t.app, me, [[productId, 1]]);
    const atCart = await call(t.app, 'POST', '/rest/cart/coupon', me, { code: coupon.code });
    assert.equal(atCart.statusCode, 422, atCart.body);
    assert.equal(atCart.json().error.code, 'COUPON_INVALID');

    const refused = await placeOrder(t.app, await customerCartWithCoupon(ada, coupon.code), { transportId });
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(refused.json().error.code, 'COUPON_INVALID');
    assert.equal(await redemptions(coupon.id), 1);
  });

  test('when a customer used the coupon, then a guest order with the same e-mail (any case) is refused', async () => {
    const coupon = await makeCoupon(t.app.db, { perCustomerLimit: 1 });
    const ada = await makeCustomer(t.app);
    const mine = await placeOrder(t.app, await customerCartWithCoupon(ada, coupon.code), { transportId });
    assert.equal(mine.statusCode, 201, mine.body);

    const refused = await guestOrder(coupon.code, ada.email.toUpperCase());
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(refused.json().error.code, 'COUPON_INVALID');
    assert.equal(refused.json().error.details[0].message, 'COUPON_CUSTOMER_LIMIT');
    assert.equal((await guestOrder(coupon.code, 'someone-else@example.com')).statusCode, 201);
    assert.equal(await redemptions(coupon.id), 2);
  });

  test('when a customer changes the e-mail after using the coupon, then it stays used: for the account (guest use under the old address too) and for a guest with the old address', async () => {
    const coupon = await makeCoupon(t.app.db, { perCustomerLimit: 2 });
    const ada = await registerCustomer(t.app);
    assert.equal((await guestOrder(coupon.code, ada.email)).statusCode, 201);
    const me = { token: ada.access_token };
    await fillCart(t.app, me, [[productId, 1]]);
    assert.equal((await call(t.app, 'POST', '/rest/cart/coupon', me, { code: coupon.code })).statusCode, 200);
    assert.equal((await placeOrder(t.app, me, { transportId })).statusCode, 201);

    const moved = await call(t.app, 'PATCH', '/rest/auth/customer/me', me, {
      email: uniqueEmail('moved'),
      currentPassword: ada.password,
    });
    assert.equal(moved.statusCode, 200, moved.body);
    await fillCart(t.app, me, [[productId, 1]]);
    const atCart = await call(t.app, 'POST', '/rest/cart/coupon', me, { code: coupon.code });
    assert.equal(atCart.statusCode, 422, atCart.body);
    assert.equal(atCart.json().error.details[0].message, 'COUPON_CUSTOMER_LIMIT');
    const account = { id: moved.json().data.id as number, token: ada.access_token };
    const refused = await placeOrder(t.app, await customerCartWithCoupon(account, coupon.code), {
      transportId,
    });
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(refused.json().error.details[0].message, 'COUPON_CUSTOMER_LIMIT');
    const asGuest = await guestOrder(coupon.code, ada.email);
    assert.equal(asGuest.statusCode, 422, asGuest.body);
    assert.equal(asGuest.json().error.details[0].message, 'COUPON_CUSTOMER_LIMIT');
    assert.equal(await redemptions(coupon.id), 2);
  });

  test('when guest orders with one e-mail and the account of that e-mail race for a coupon limited to 1 per customer, then it is used once', async () => {
    const coupon = await makeCoupon(t.app.db, { perCustomerLimit: 1 });
    const ada = await makeCustomer(t.app);
    const guests: { cart?: string }[] = [];
    for (let i = 0; i < 8; i++) {
      const guest = await fillCart(t.app, {}, [[productId, 1]]);
      assert.equal(
        (await call(t.app, 'POST', '/rest/cart/coupon', guest, { code: coupon.code })).statusCode,
        200,
      );
      guests.push(guest);
    }
    const me = await customerCartWithCoupon(ada, coupon.code);
    const answers = await Promise.all([
      placeOrder(t.app, me, { transportId }),
      ...guests.map((g, i) =>
        placeOrder(t.app, g, { transportId, email: i % 2 ? ada.email : ada.email.toUpperCase() }),
      ),
    ]);
    const statuses = answers.map((a) => a.statusCode).sort();
    assert.deepEqual(
      statuses,
      [201, ...Array(8).fill(422)],
      answers.map((a) => a.body.slice(0, 120)).join('\n'),
    );
    assert.equal(await redemptions(coupon.id), 1);
  });
});
