import { type Static, Type } from '@sinclair/typebox';
import { PageQuery } from '../../resources/pagination.ts';
import { IdParams } from '../../resources/schemas.ts';
import { OrderTotals, PayWay, totalsFields } from '../checkout/checkout.schemas.ts';
import { ORDER_STATUSES } from './order-states.ts';

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

export const AddressJson = Type.Object({
  firstName: Type.String(),
  lastName: Type.String(),
  phone: Type.String(),
  email: Type.String(),
  street: Type.String(),
  city: Type.String(),
  countyAlpha: Type.Union([Type.String(), Type.Null()]),
  countryAlpha2: Type.String(),
  postalCode: Type.Union([Type.String(), Type.Null()]),
});
export type AddressJsonType = Static<typeof AddressJson>;

export const OrderLineJson = Type.Object({
  productId: Type.Integer(),
  sku: Type.String(),
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
});

export const OrderJson = Type.Object(
  {
    id: Type.Integer(),
    number: Type.String(),
    status: Status,
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
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Order' },
);
export type OrderJsonType = Static<typeof OrderJson>;

export const OrderListQuery = Type.Object({ ...PageQuery, status: Type.Optional(Status) });

export const OrderIdParams = IdParams;

export const TransitionBody = Type.Object({ to: Status }, { additionalProperties: false });
