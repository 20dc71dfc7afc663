import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { WebUrl } from '../../http/web-url.ts';
import { IdParams, PageQuery } from '../../resources/index.ts';
import { OrderTotals, PayWay, totalsFields } from '../pricing/totals.schemas.ts';
import { ORDER_STATUSES } from './order-states.ts';
import { PAYMENT_STATUSES } from './payment-states.ts';
import { CardPaymentJson } from '../payments/payments.schemas.ts';
import { AddressJson } from './address.schemas.ts';

export { AddressJson, type AddressJsonType } from './address.schemas.ts';

const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
const Status = Type.Union(
  ORDER_STATUSES.map((s) => Type.Literal(s)),
  { description: 'pending → confirmed → shipped → delivered; pending or confirmed → cancelled' },
);

const addressFields = {
  firstName: Text(100),
  lastName: Text(100),
  phone: Type.String({ minLength: 3, maxLength: 32, pattern: '^[0-9+() .-]+$' }),
  email: Type.Optional(Type.String({ format: 'email', maxLength: 254, description: 'Required for guests' })),
  street: Text(200),
  city: Text(100),
  countyAlpha: Type.Optional(Type.String({ minLength: 1, maxLength: 10, pattern: '^[A-Za-z0-9-]+$' })),
  countryAlpha2: Type.String({ pattern: '^[A-Za-z]{2}$' }),
  postalCode: Type.Optional(Type.String({ minLength: 1, maxLength: 16, pattern: '^[A-Za-z0-9 -]+$' })),
};

/** The totals body plus the delivery address and the total the client saw; still no price can be sent. */
export const PlaceOrderBody = Type.Object(
  {
    ...totalsFields,
    ...addressFields,
    expectedTotal: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 100_000_000,
        description: 'The total shown to the buyer; 409 TOTAL_CHANGED when it differs',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PlaceOrderBodyType = Static<typeof PlaceOrderBody>;

export const PlaceOrderHeaders = Type.Object({
  'x-cart-token': Type.Optional(Type.String({ maxLength: 200 })),
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'A retry with the same key and body replays the first answer',
    }),
  ),
});

export const OrderLineJson = Type.Object({
  id: Type.Integer({ description: 'The line id a return names (orderLineId)' }),
  productId: Type.Integer(),
  variantId: Type.Integer({ description: 'The variant sold' }),
  sku: Type.String({ description: "The variant's sku as sold" }),
  options: Type.Record(Type.String(), Type.String(), { description: "The variant's options as sold" }),
  name: Type.String(),
  unitPrice: Type.Number(),
  qty: Type.Integer(),
  vatRate: Type.Number(),
  lineTotal: Type.Number(),
  giftId: Type.Union([Type.Integer(), Type.Null()], { description: 'The gift rule of a free line' }),
});

export const VatEntryJson = Type.Object({
  rate: Type.Number(),
  net: Type.Number(),
  vat: Type.Number(),
  gross: Type.Number(),
  reverseCharge: Type.Optional(
    Type.Boolean({ description: 'The one rate-0 entry of a B2B reverse-charged order' }),
  ),
});

const PaymentStatus = Type.Union(
  PAYMENT_STATUSES.map((s) => Type.Literal(s)),
  { description: 'pending → paid → partially_refunded / refunded (docs/orders.md)' },
);
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const StatusChangeJson = Type.Object({
  from: Nullable(Status),
  to: Status,
  at: Type.String({ format: 'date-time' }),
  by: Type.String({
    description: "An admin's subject (back office) or `shop`; `customer:<id>` / `customer`; `guest`",
  }),
  reason: Nullable(Type.String()),
});

export const ShipmentJson = Type.Object({
  carrier: Type.String(),
  trackingNumber: Type.String(),
  trackingUrl: Nullable(Type.String()),
  at: Type.String({ format: 'date-time' }),
});

export const ReturnJson = Type.Object({
  id: Type.Integer(),
  amount: Type.Number({ description: 'Money refunded for the returned units' }),
  points: Type.Integer({ description: 'Points given back' }),
  restock: Type.Boolean(),
  reason: Nullable(Type.String()),
  at: Type.String({ format: 'date-time' }),
  lines: Type.Array(
    Type.Object({
      orderLineId: Type.Integer(),
      qty: Type.Integer(),
      amount: Type.Number(),
      points: Type.Integer(),
    }),
  ),
});

export const OrderJson = Type.Object(
  {
    id: Type.Integer(),
    number: Type.String(),
    status: Status,
    paymentStatus: PaymentStatus,
    paid: Type.Number({ description: 'Amount received' }),
    refunded: Type.Number({ description: 'Amount refunded so far' }),
    paidAt: Nullable(Type.String({ format: 'date-time' })),
    customerId: Type.Union([Type.Integer(), Type.Null()]),
    email: Type.String(),
    currency: Type.String(),
    total: Type.Number(),
    totals: OrderTotals,
    lines: Type.Array(OrderLineJson),
    address: AddressJson,
    vatBreakdown: Type.Array(VatEntryJson, {
      description: 'Per VAT rate; net + vat = gross, Σ gross = total',
    }),
    couponCode: Type.Union([Type.String(), Type.Null()]),
    pointsSpent: Type.Integer(),
    transport: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]),
    payWay: Type.Union([PayWay, Type.Null()]),
    giftPackaging: Type.Boolean(),
    vatId: Type.Union([Type.String(), Type.Null()], {
      description: "The business buyer's VAT id, when given",
    }),
    shippingZone: Type.Union(
      [Type.Object({ zoneId: Type.Integer(), zoneName: Type.String(), rateId: Type.Integer() }), Type.Null()],
      { description: "The zone and rate that priced the shipping; null for a transport's own price" },
    ),
    payment: Type.Optional({ ...CardPaymentJson, description: 'The card payment (payWay "card")' }),
    statusHistory: Type.Array(StatusChangeJson, { description: 'Every status move, oldest first' }),
    shipments: Type.Array(ShipmentJson),
    returns: Type.Array(ReturnJson),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Order' },
);
export type OrderJsonType = Static<typeof OrderJson>;

/** The list's filters, shared by the list, /item and the CSV export. */
export const orderFilters = {
  status: Type.Optional(Status),
  createdFrom: Type.Optional(
    Type.String({ format: 'date-time', description: 'Placed at or after this instant' }),
  ),
  createdTo: Type.Optional(Type.String({ format: 'date-time', description: 'Placed before this instant' })),
  email: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'Exact, any case' })),
  number: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'e.g. SO-000042' })),
  paymentStatus: Type.Optional(PaymentStatus),
  totalAbove: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 100_000_000,
      description:
        'Orders whose total is above this amount (decimal; e.g. unpaid orders above an alert threshold)',
    }),
  ),
};
export const OrderFilterQuery = Type.Object(orderFilters);
export type OrderFilters = Static<typeof OrderFilterQuery>;

export const OrderListQuery = Type.Object({ ...PageQuery, ...orderFilters });

export const OrderIdParams = IdParams;

const Reason = Type.String({ minLength: 1, maxLength: 500, description: 'Why; kept in the status history' });

export const TransitionBody = Type.Object(
  { to: Status, reason: Type.Optional(Reason) },
  { additionalProperties: false },
);

export const CancelBody = Type.Object({ reason: Type.Optional(Reason) }, { additionalProperties: false });

export const ShipmentBody = Type.Object(
  {
    carrier: Type.String({ minLength: 1, maxLength: 100 }),
    trackingNumber: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9 ._/-]+$' }),
    trackingUrl: Type.Optional(WebUrl({ absolute: true, maxLength: 500 })),
  },
  { additionalProperties: false },
);
export type ShipmentBodyType = Static<typeof ShipmentBody>;

export const PaymentBody = Type.Object(
  {
    reference: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'e.g. the bank transfer reference' }),
    ),
  },
  { additionalProperties: false },
);

export const ReturnBody = Type.Object(
  {
    lines: Type.Array(
      Type.Object(
        {
          orderLineId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
          qty: Type.Integer({ minimum: 1, maximum: 100_000 }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 200 },
    ),
    restock: Type.Boolean({ description: 'Put the returned units back in stock' }),
    reason: Type.Optional(Reason),
  },
  { additionalProperties: false },
);
export type ReturnBodyType = Static<typeof ReturnBody>;

export const LookupQuery = Type.Object({
  number: Type.String({ minLength: 1, maxLength: 32 }),
  email: Type.String({ minLength: 3, maxLength: 254 }),
});
