import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderMail } from '../../src/modules/mail/templates.ts';

// The order confirmation of a business buyer (docs/shipping-and-tax.md): the VAT id, the VAT not
// charged and the reverse-charge notice, in text and HTML.

const order = {
  number: 'SO-000042',
  currency: 'EUR',
  lines: [{ name: 'Olive oil', options: {}, sku: 'OIL-1', qty: 2, unitPrice: '12.40', lineTotal: '24.80' }],
  totals: [
    { figure: 'subtotal' as const, amount: '24.80' },
    { figure: 'reverseChargeVat' as const, amount: '-3.96' },
  ],
  vat: [{ rate: 0, net: '20.84', vat: '0.00', gross: '20.84' }],
  total: '20.84',
  vatId: 'DE136695976',
  reverseCharge: true,
};

test('when a reverse-charged order is confirmed, then the e-mail shows the VAT id, the VAT not charged and the notice', () => {
  const mail = renderMail('en', { template: 'order_confirmation', firstName: 'Ada', order });
  for (const body of [mail.text, mail.html]) {
    assert.match(body, /Your VAT id: DE136695976/);
    assert.match(body, /VAT not charged \(reverse charge\)/);
    assert.match(body, /Reverse charge: the VAT is due from the recipient/);
  }
  const plain = renderMail('en', {
    template: 'order_confirmation',
    firstName: 'Ada',
    order: { ...order, vatId: null, reverseCharge: false, totals: order.totals.slice(0, 1) },
  });
  assert.doesNotMatch(plain.text, /VAT id|Reverse charge/);
});
