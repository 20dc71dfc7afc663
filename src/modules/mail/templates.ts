// The e-mail templates, in English and Greek (the setting `locale`): each renders a subject, a
// plain-text part and an HTML part from the same data. Values are escaped in the HTML part.

export type Locale = 'en' | 'el';

/** The locales the templates are written in. */
export function isMailLocale(locale: string | null | undefined): locale is Locale {
  return locale === 'en' || locale === 'el';
}
export const LOCALES: readonly Locale[] = ['en', 'el'];

export interface OrderMailData {
  number: string;
  currency: string;
  lines: {
    name: string;
    /** The variant's option values, e.g. {Size: 'M'}; empty for a product without options. */
    options: Record<string, string>;
    sku: string;
    qty: number;
    unitPrice: string;
    lineTotal: string;
  }[];
  /** Non-zero figures of the order's totals, in order. */
  totals: { figure: TotalFigure; amount: string }[];
  vat: { rate: number; net: string; vat: string; gross: string }[];
  total: string;
  /** The business buyer's VAT id, and whether the order is reverse-charged (docs/shipping-and-tax.md). */
  vatId?: string | null;
  reverseCharge?: boolean;
}

export type TotalFigure =
  | 'subtotal'
  | 'shipping'
  | 'cashOnDelivery'
  | 'discount'
  | 'giftPackaging'
  | 'points'
  | 'reverseChargeVat';

export type MailData =
  | { template: 'welcome'; firstName: string }
  | { template: 'verification'; firstName: string; token: string }
  | { template: 'password_reset'; firstName: string; token: string; minutes: number }
  | { template: 'admin_invitation'; name: string; token: string; days: number }
  | { template: 'admin_password_reset'; name: string; token: string; minutes: number }
  | { template: 'order_confirmation'; firstName: string; order: OrderMailData }
  | { template: 'order_shipped'; firstName: string; number: string; tracking?: ShipmentTracking }
  | { template: 'order_cancelled'; firstName: string; number: string }
  | { template: 'payment_received'; firstName: string; number: string; amount: string; currency: string };

/** The carrier and tracking of a shipment, as the back office entered them. */
export interface ShipmentTracking {
  carrier: string;
  trackingNumber: string;
  trackingUrl: string | null;
}

export type TemplateName = MailData['template'];

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** Paragraphs become the text part as they are and the HTML part escaped, one <p> each. */
function fromParagraphs(subject: string, paragraphs: string[], htmlExtra = ''): RenderedMail {
  return {
    subject,
    text: `${paragraphs.join('\n\n')}\n`,
    html: `<!doctype html><html><body>${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}${htmlExtra}</body></html>`,
  };
}

const WORDS = {
  en: {
    hello: (name: string) => `Hello ${name},`,
    welcomeSubject: 'Welcome to our shop',
    welcomeBody: 'Your account is ready. Thank you for registering.',
    verifySubject: 'Confirm your e-mail address',
    verifyBody: 'Confirm your address with this code:',
    resetSubject: 'Reset your password',
    resetBody: (m: number) =>
      `Use this code to choose a new password. It is valid for ${m} minutes and once only:`,
    resetIgnore: 'If you did not ask for it, ignore this message; your password stays as it is.',
    inviteSubject: 'Your back-office account',
    inviteBody: (d: number) =>
      `An account of the shop's back office was opened for you. Choose your password with this code on the back office's login page ("Choose a password with an e-mailed code"). It is valid for ${d} days and once only:`,
    adminResetBody: (m: number) =>
      `An administrator asked for your back-office password to be reset. Choose a new one with this code on the back office's login page ("Choose a password with an e-mailed code"). It is valid for ${m} minutes and once only:`,
    adminResetIgnore: 'Until you use it, your password stays as it is.',
    confirmationSubject: (n: string) => `Order ${n} confirmed`,
    confirmationBody: (n: string) => `Thank you for your order ${n}.`,
    product: 'Product',
    qty: 'Qty',
    price: 'Price',
    amount: 'Amount',
    vatRate: 'VAT rate',
    vatId: 'Your VAT id',
    reverseCharge: 'Reverse charge: the VAT is due from the recipient (Article 196, Directive 2006/112/EC).',
    net: 'Net',
    vat: 'VAT',
    gross: 'Gross',
    total: 'Total',
    figures: {
      subtotal: 'Subtotal',
      shipping: 'Shipping',
      cashOnDelivery: 'Cash-on-delivery fee',
      discount: 'Discount',
      giftPackaging: 'Gift packaging',
      points: 'Loyalty points',
      reverseChargeVat: 'VAT not charged (reverse charge)',
    },
    shippedSubject: (n: string) => `Order ${n} has shipped`,
    shippedBody: (n: string) => `Your order ${n} is on its way.`,
    tracking: (carrier: string, number: string) => `Carrier: ${carrier}, tracking number: ${number}`,
    trackingUrl: (url: string) => `Follow it at ${url}`,
    cancelledSubject: (n: string) => `Order ${n} cancelled`,
    cancelledBody: (n: string) => `Your order ${n} has been cancelled. Anything charged will be refunded.`,
    paidSubject: (n: string) => `Payment received for order ${n}`,
    paidBody: (n: string, amount: string, currency: string) =>
      `We have received your payment of ${amount} ${currency} for order ${n}. Thank you.`,
  },
  el: {
    hello: (name: string) => `Γεια σας ${name},`,
    welcomeSubject: 'Καλώς ήρθατε στο κατάστημά μας',
    welcomeBody: 'Ο λογαριασμός σας είναι έτοιμος. Σας ευχαριστούμε για την εγγραφή.',
    verifySubject: 'Επιβεβαιώστε τη διεύθυνση e-mail σας',
    verifyBody: 'Επιβεβαιώστε τη διεύθυνσή σας με αυτόν τον κωδικό:',
    resetSubject: 'Επαναφορά κωδικού πρόσβασης',
    resetBody: (m: number) =>
      `Χρησιμοποιήστε αυτόν τον κωδικό για να ορίσετε νέο κωδικό πρόσβασης. Ισχύει για ${m} λεπτά και μία μόνο φορά:`,
    resetIgnore: 'Αν δεν το ζητήσατε, αγνοήστε αυτό το μήνυμα· ο κωδικός σας μένει ως έχει.',
    inviteSubject: 'Ο λογαριασμός σας στη διαχείριση',
    inviteBody: (d: number) =>
      `Δημιουργήθηκε για εσάς λογαριασμός στη διαχείριση του καταστήματος. Ορίστε τον κωδικό πρόσβασής σας με αυτόν τον κωδικό στη σελίδα σύνδεσης της διαχείρισης («Choose a password with an e-mailed code»). Ισχύει για ${d} ημέρες και μία μόνο φορά:`,
    adminResetBody: (m: number) =>
      `Ένας διαχειριστής ζήτησε επαναφορά του κωδικού πρόσβασής σας στη διαχείριση. Ορίστε νέο με αυτόν τον κωδικό στη σελίδα σύνδεσης της διαχείρισης («Choose a password with an e-mailed code»). Ισχύει για ${m} λεπτά και μία μόνο φορά:`,
    adminResetIgnore: 'Μέχρι να τον χρησιμοποιήσετε, ο κωδικός σας μένει ως έχει.',
    confirmationSubject: (n: string) => `Επιβεβαίωση παραγγελίας ${n}`,
    confirmationBody: (n: string) => `Σας ευχαριστούμε για την παραγγελία σας ${n}.`,
    product: 'Προϊόν',
    qty: 'Ποσ.',
    price: 'Τιμή',
    amount: 'Ποσό',
    vatRate: 'Συντελεστής ΦΠΑ',
    vatId: 'Ο ΑΦΜ σας (ΦΠΑ)',
    reverseCharge: 'Αντίστροφη επιβάρυνση: τον ΦΠΑ οφείλει ο λήπτης (άρθρο 196, Οδηγία 2006/112/ΕΚ).',
    net: 'Καθαρό',
    vat: 'ΦΠΑ',
    gross: 'Σύνολο',
    total: 'Σύνολο',
    figures: {
      subtotal: 'Μερικό σύνολο',
      shipping: 'Μεταφορικά',
      cashOnDelivery: 'Έξοδα αντικαταβολής',
      discount: 'Έκπτωση',
      giftPackaging: 'Συσκευασία δώρου',
      points: 'Πόντοι επιβράβευσης',
      reverseChargeVat: 'ΦΠΑ που δεν χρεώνεται (αντίστροφη επιβάρυνση)',
    },
    shippedSubject: (n: string) => `Η παραγγελία ${n} απεστάλη`,
    shippedBody: (n: string) => `Η παραγγελία σας ${n} είναι καθ' οδόν.`,
    tracking: (carrier: string, number: string) => `Μεταφορική: ${carrier}, αριθμός αποστολής: ${number}`,
    trackingUrl: (url: string) => `Παρακολουθήστε την στο ${url}`,
    cancelledSubject: (n: string) => `Η παραγγελία ${n} ακυρώθηκε`,
    cancelledBody: (n: string) => `Η παραγγελία σας ${n} ακυρώθηκε. Ό,τι χρεώθηκε θα σας επιστραφεί.`,
    paidSubject: (n: string) => `Λάβαμε την πληρωμή της παραγγελίας ${n}`,
    paidBody: (n: string, amount: string, currency: string) =>
      `Λάβαμε την πληρωμή σας ${amount} ${currency} για την παραγγελία ${n}. Σας ευχαριστούμε.`,
  },
} as const;

function table(head: string[], rows: string[][]): string {
  const cells = (tag: string, values: string[]) =>
    values.map((v) => `<${tag}>${escapeHtml(v)}</${tag}>`).join('');
  return `<table border="1" cellpadding="4" cellspacing="0"><tr>${cells('th', head)}</tr>${rows.map((r) => `<tr>${cells('td', r)}</tr>`).join('')}</table>`;
}

/** A variant's options after the product's name: ` – Size: M, Colour: Red`. */
function optionsText(options: Record<string, string>): string {
  const pairs = Object.entries(options).map(([name, value]) => `${name}: ${value}`);
  return pairs.length === 0 ? '' : ` – ${pairs.join(', ')}`;
}

function orderConfirmation(locale: Locale, firstName: string, order: OrderMailData): RenderedMail {
  const w = WORDS[locale];
  const money = (amount: string) => `${amount} ${order.currency}`;
  const lineRows = order.lines.map((l) => [
    `${l.name}${optionsText(l.options)} (${l.sku})`,
    String(l.qty),
    money(l.unitPrice),
    money(l.lineTotal),
  ]);
  const totalRows = order.totals.map((t) => [w.figures[t.figure], money(t.amount)]);
  const vatRows = order.vat.map((v) => [`${v.rate}%`, money(v.net), money(v.vat), money(v.gross)]);
  const b2b = [
    ...(order.vatId ? [`${w.vatId}: ${order.vatId}`] : []),
    ...(order.reverseCharge ? [w.reverseCharge] : []),
  ];
  const text = [
    w.hello(firstName),
    w.confirmationBody(order.number),
    lineRows.map((r) => `${r[1]} × ${r[0]} @ ${r[2]} = ${r[3]}`).join('\n'),
    totalRows.map((r) => `${r[0]}: ${r[1]}`).join('\n'),
    `${w.vatRate} / ${w.net} / ${w.vat} / ${w.gross}\n${vatRows.map((r) => r.join(' / ')).join('\n')}`,
    `${w.total}: ${money(order.total)}`,
    ...b2b,
  ];
  const html =
    `<!doctype html><html><body><p>${escapeHtml(w.hello(firstName))}</p><p>${escapeHtml(w.confirmationBody(order.number))}</p>` +
    table([w.product, w.qty, w.price, w.amount], lineRows) +
    table(['', w.amount], totalRows) +
    table([w.vatRate, w.net, w.vat, w.gross], vatRows) +
    `<p><strong>${escapeHtml(w.total)}: ${escapeHtml(money(order.total))}</strong></p>` +
    b2b.map((line) => `<p>${escapeHtml(line)}</p>`).join('') +
    '</body></html>';
  return { subject: w.confirmationSubject(order.number), text: `${text.join('\n\n')}\n`, html };
}

export function renderMail(locale: Locale, data: MailData): RenderedMail {
  const w = WORDS[locale];
  switch (data.template) {
    case 'welcome':
      return fromParagraphs(w.welcomeSubject, [w.hello(data.firstName), w.welcomeBody]);
    case 'verification':
      return fromParagraphs(w.verifySubject, [w.hello(data.firstName), w.verifyBody, data.token]);
    case 'password_reset':
      return fromParagraphs(w.resetSubject, [
        w.hello(data.firstName),
        w.resetBody(data.minutes),
        data.token,
        w.resetIgnore,
      ]);
    case 'admin_invitation':
      return fromParagraphs(w.inviteSubject, [w.hello(data.name), w.inviteBody(data.days), data.token]);
    case 'admin_password_reset':
      return fromParagraphs(w.resetSubject, [
        w.hello(data.name),
        w.adminResetBody(data.minutes),
        data.token,
        w.adminResetIgnore,
      ]);
    case 'order_confirmation':
      return orderConfirmation(locale, data.firstName, data.order);
    case 'order_shipped':
      return fromParagraphs(w.shippedSubject(data.number), [
        w.hello(data.firstName),
        w.shippedBody(data.number),
        ...(data.tracking ? [w.tracking(data.tracking.carrier, data.tracking.trackingNumber)] : []),
        ...(data.tracking?.trackingUrl ? [w.trackingUrl(data.tracking.trackingUrl)] : []),
      ]);
    case 'order_cancelled':
      return fromParagraphs(w.cancelledSubject(data.number), [
        w.hello(data.firstName),
        w.cancelledBody(data.number),
      ]);
    case 'payment_received':
      return fromParagraphs(w.paidSubject(data.number), [
        w.hello(data.firstName),
        w.paidBody(data.number, data.amount, data.currency),
      ]);
  }
}
