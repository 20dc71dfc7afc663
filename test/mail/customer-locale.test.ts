import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { type TestApp, startTestApp } from '../helpers/app.ts';
import { readMail, startSmtpReceiver } from '../helpers/smtp-receiver.ts';
import { get, post, registerCustomer, uniqueEmail } from '../auth/auth-helpers.ts';
import { salesOrders } from '../../src/modules/orders/order.tables.ts';
import { ADDRESS, call, fillCart, makeCustomer, makeProduct, makeTransport } from '../checkout/fixtures.ts';

const jobs = {
  enabled: true,
  retryBaseMs: 50,
  retryMaxMs: 200,
  relayIntervalMs: 50,
  pollIntervalSeconds: 0.5,
};

describe("a customer's locale: registration, profile, e-mails and orders", () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;

  before(async () => {
    smtp = await startSmtpReceiver();
    t = await startTestApp({
      config: { jobs, mail: { smtpUrl: smtp.url, from: 'Shop <shop@example.com>' } },
    });
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  test('when a customer registers with locale el in an English shop, then the welcome e-mail is Greek and the profile says el', async () => {
    const { email, access_token } = await registerCustomer(t.app, { firstName: 'Ελένη', locale: 'el' });
    const [message] = await smtp.messagesTo(email);
    assert.equal(readMail(message.raw).subject, 'Καλώς ήρθατε στο κατάστημά μας');
    const me = await get(t.app, '/rest/auth/customer/me', access_token);
    assert.equal(me.json().data.locale, 'el');
  });

  test('when a customer registers with a locale the shop does not serve, then 400 names locale', async () => {
    const res = await post(t.app, '/rest/auth/customer/register', {
      email: uniqueEmail('de'),
      password: 'customer-password',
      firstName: 'Hans',
      lastName: 'Meier',
      locale: 'de',
    });
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /locale/);
  });

  test('when a customer changes the locale in the profile, then the profile answers it', async () => {
    const { access_token } = await registerCustomer(t.app);
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/rest/auth/customer/me',
      headers: { authorization: `Bearer ${access_token}` },
      payload: { locale: 'el' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await get(t.app, '/rest/auth/customer/me', access_token)).json().data.locale, 'el');
  });

  test('when an order is placed with Accept-Language el, then it keeps el and its confirmation is Greek', async () => {
    const transportId = await makeTransport(t.app.db);
    const product = await makeProduct(t.app.db, { price: 1000 });
    const customer = await makeCustomer(t.app);
    await fillCart(t.app, { token: customer.token }, [[product, 1]]);
    const placed = await call(
      t.app,
      'POST',
      '/rest/checkout/place-order',
      { token: customer.token },
      { ...ADDRESS, transportId },
      { 'accept-language': 'el-GR,el;q=0.9' },
    );
    assert.equal(placed.statusCode, 201, placed.body);
    const order = placed.json().data;
    const [row] = await t.app.db
      .select({ locale: salesOrders.locale })
      .from(salesOrders)
      .where(eq(salesOrders.id, order.id));
    assert.equal(row.locale, 'el');
    const [confirmation] = await smtp.messagesTo(customer.email);
    assert.equal(readMail(confirmation.raw).subject, `Επιβεβαίωση παραγγελίας ${order.number}`);
  });
});
