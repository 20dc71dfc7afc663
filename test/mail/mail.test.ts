import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { body, type TestApp, startTestApp } from '../helpers/app.ts';
import { adminHeaders, setStoredSetting, unique } from '../helpers/catalog-factories.ts';
import { readMail, startSmtpReceiver } from '../helpers/smtp-receiver.ts';
import { registerCustomer } from '../auth/auth-helpers.ts';
import { mailMessage } from '../../src/modules/mail/mail.tables.ts';
import {
  adminToken,
  call,
  fillCart,
  makeCustomer,
  makeProduct,
  makeTransport,
  placeOrder,
} from '../checkout/fixtures.ts';

const jobs = {
  enabled: true,
  retryBaseMs: 50,
  retryMaxMs: 200,
  relayIntervalMs: 50,
  pollIntervalSeconds: 0.5,
};

interface MailRow {
  template: string;
  to: string | null;
  subject: string | null;
  status: string;
  locale: string;
}

describe('e-mail over a real SMTP server', () => {
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

  test('when a customer registers, then a welcome e-mail with text and HTML parts arrives from MAIL_FROM', async () => {
    const { email } = await registerCustomer(t.app, { firstName: 'Grace' });
    const [message] = await smtp.messagesTo(email);
    assert.equal(message.from, 'shop@example.com');
    const mail = readMail(message.raw);
    assert.equal(mail.subject, 'Welcome to our shop');
    assert.match(mail.text, /Hello Grace,/);
    assert.match(mail.html, /<p>Hello Grace,<\/p>/);
  });

  test('when an order is placed and cancelled, then a confirmation with lines, totals and VAT, then a cancellation arrive', async () => {
    const transportId = await makeTransport(t.app.db);
    const product = await makeProduct(t.app.db, { name: 'Blue <Mug>', price: 1190, vatRate: 19 });
    const customer = await makeCustomer(t.app);
    await fillCart(t.app, { token: customer.token }, [[product, 2]]);
    const placed = await placeOrder(t.app, { token: customer.token }, { transportId });
    assert.equal(placed.statusCode, 201, placed.body);
    const order = placed.json().data;
    const [confirmation] = await smtp.messagesTo(customer.email);
    const mail = readMail(confirmation.raw);
    assert.equal(mail.subject, `Order ${order.number} confirmed`);
    assert.match(mail.text, /2 × Blue <Mug> \(SKU-[^)]+\) @ 11\.90 EUR = 23\.80 EUR/);
    assert.match(mail.text, /Subtotal: 23\.80 EUR/);
    assert.match(mail.text, /Shipping: \d+\.\d\d EUR/);
    for (const v of order.vatBreakdown as { rate: number; net: number; vat: number; gross: number }[]) {
      const figures = [v.net, v.vat, v.gross].map((n) => `${n.toFixed(2)} EUR`).join(' / ');
      assert.ok(mail.text.includes(`${v.rate}% / ${figures}`), `VAT row ${v.rate}%`);
    }
    assert.match(mail.text, new RegExp(`Total: ${order.total.toFixed(2)} EUR`));
    assert.match(mail.html, /Blue &lt;Mug&gt;/, 'values are escaped in HTML');
    const cancel = await call(
      t.app,
      'POST',
      `/rest/order/order/${order.id}/transition`,
      { token: await adminToken(t.app) },
      { to: 'cancelled' },
    );
    assert.equal(cancel.statusCode, 200, cancel.body);
    const messages = await smtp.messagesTo(customer.email, 2);
    assert.equal(readMail(messages[1].raw).subject, `Order ${order.number} cancelled`);
  });

  test('when the order holds a variant, then its line in the confirmation names the options', async () => {
    const transportId = await makeTransport(t.app.db);
    const sku = unique('MAILTEE');
    const created = await t.app.inject({
      method: 'POST',
      url: '/rest/product/product',
      headers: await adminHeaders(t.app),
      payload: {
        name: 'Mail tee',
        sku,
        price: 20,
        options: [
          { name: 'Size', values: ['S', 'M'] },
          { name: 'Colour', values: ['Red'] },
        ],
        variants: [{ sku: `${sku}-M-R`, options: { Size: 'M', Colour: 'Red' }, price: 22.5, stockQty: 5 }],
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    const productId = created.json().data.id as number;
    const variants = await call(t.app, 'GET', `/rest/product/variant?productId=${productId}`, {});
    const variantId = variants.json().data[0].id as number;
    const customer = await makeCustomer(t.app);
    const added = await call(
      t.app,
      'POST',
      '/rest/cart/items',
      { token: customer.token },
      { variantId, qty: 1 },
    );
    assert.equal(added.statusCode, 200, added.body);
    const placed = await placeOrder(t.app, { token: customer.token }, { transportId });
    assert.equal(placed.statusCode, 201, placed.body);
    const mail = readMail((await smtp.messagesTo(customer.email))[0].raw);
    assert.match(mail.text, new RegExp(`1 × Mail tee – Size: M, Colour: Red \\(${sku}-M-R\\) @ 22\\.50 EUR`));
    assert.match(mail.html, /Mail tee – Size: M, Colour: Red/);
  });

  test('when the locale is el, then the e-mail is in Greek', async () => {
    await setStoredSetting(t.app.db, 'locale', 'el');
    try {
      const { email } = await registerCustomer(t.app, { firstName: 'Ελένη' });
      const [message] = await smtp.messagesTo(email);
      const mail = readMail(message.raw);
      assert.equal(mail.subject, 'Καλώς ήρθατε στο κατάστημά μας');
      assert.match(mail.text, /Γεια σας Ελένη,/);
    } finally {
      await setStoredSetting(t.app.db, 'locale', 'en');
    }
  });

  test('when the back office lists the outbox, then every message is there with its status; other roles get 403', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/rest/system/mail?limit=100',
      headers: await adminHeaders(t.app, [2]),
    });
    assert.equal(res.statusCode, 200, res.body);
    const rows = body<{ data: MailRow[] }>(res).data;
    assert.ok(rows.some((m) => m.template === 'welcome' && m.status === 'sent'));
    assert.ok(rows.some((m) => m.template === 'order_confirmation' && m.status === 'sent'));
    assert.ok(rows.some((m) => m.locale === 'el'));
    const forbidden = await t.app.inject({
      method: 'GET',
      url: '/rest/system/mail',
      headers: await adminHeaders(t.app, [6]),
    });
    assert.equal(forbidden.statusCode, 403);
  });
});

describe('e-mail without SMTP_URL', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ config: { jobs } });
  });
  after(async () => t.close());

  test('when a message is due and no SMTP server is configured, then it stays in the outbox as logged', async () => {
    const { email } = await registerCustomer(t.app);
    const headers = await adminHeaders(t.app, [3]);
    let row: MailRow | undefined;
    for (let i = 0; i < 100 && row?.status !== 'logged'; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/rest/system/mail', headers });
      row = body<{ data: MailRow[] }>(res).data.find((m) => m.to === email);
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(row?.status, 'logged');
    assert.equal(row?.template, 'welcome');
  });

  test('when a Developer lists the outbox, then no recipient or subject and no address in errors; Admin and Superuser read them', async () => {
    const { email } = await registerCustomer(t.app);
    const refused = `550 5.1.1 <${email}>: Recipient address rejected`;
    const [dead] = await t.app.db
      .insert(mailMessage)
      .values({
        template: 'order_confirmation',
        locale: 'en',
        toAddress: email,
        subject: 'Order SO-1 confirmed',
        textBody: 'Ann Example, 1 Main Street',
        htmlBody: '<p>Ann Example</p>',
        status: 'dead',
        attempts: 10,
        jobQueued: true,
        lastError: refused,
      })
      .returning({ id: mailMessage.id });
    const list = async (roles: number[]) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/rest/system/mail?limit=100',
        headers: await adminHeaders(t.app, roles),
      });
      assert.equal(res.statusCode, 200, res.body);
      return body<{ data: (MailRow & { id: number; error: string | null })[] }>(res).data;
    };
    const developer = await list([2]);
    assert.ok(developer.length >= 2);
    assert.ok(developer.every((m) => m.to === null && m.subject === null && !('body' in m)));
    assert.ok(!JSON.stringify(developer).includes(email), 'the address appears nowhere');
    const row = developer.find((m) => m.id === dead.id);
    assert.deepEqual(
      [row?.template, row?.status, row?.error],
      ['order_confirmation', 'dead', '550 5.1.1 <[address]>: Recipient address rejected'],
    );
    for (const roles of [[3], [1], [2, 3]]) {
      const full = (await list(roles)).find((m) => m.id === dead.id);
      assert.deepEqual([full?.to, full?.subject, full?.error], [email, 'Order SO-1 confirmed', refused]);
    }
  });
});
