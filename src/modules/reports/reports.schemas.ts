import { type Static, Type } from '@sinclair/typebox';
import { INTERVALS } from './report-period.ts';

const Day = (description: string) =>
  Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    description: `${description} (YYYY-MM-DD, shop time zone)`,
  });

export const PeriodQuery = Type.Object({
  from: Type.Optional(Day('First day counted; default 29 days before `to`')),
  to: Type.Optional(Day('Last day counted; default today')),
});

export const SalesQuery = Type.Object({
  ...PeriodQuery.properties,
  interval: Type.Optional(
    Type.Union(
      INTERVALS.map((i) => Type.Literal(i)),
      { description: 'Bucket size; weeks start on Monday; default day' },
    ),
  ),
});
export type SalesQueryType = Static<typeof SalesQuery>;

export const TopProductsQuery = Type.Object({
  ...PeriodQuery.properties,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Default 10' })),
});

const Money = (description: string) => Type.Number({ description });

export const VatJson = Type.Object({
  rate: Type.Number(),
  net: Type.Number(),
  vat: Type.Number(),
  gross: Type.Number(),
});

export const SalesBucketJson = Type.Object({
  period: Type.String({ description: 'First day of the bucket (YYYY-MM-DD)' }),
  orders: Type.Integer({ description: 'Orders placed and not cancelled' }),
  items: Type.Integer(),
  gross: Money('Σ order totals: what customers were charged'),
  net: Money('gross less VAT'),
  vatTotal: Money('Σ VAT over the rates'),
  vat: Type.Array(VatJson, { description: 'Per VAT rate; Σ gross = gross' }),
  vatByCountry: Type.Array(
    Type.Object({ country: Type.String({ description: 'Delivery country (alpha-2)' }), ...VatJson.properties }),
    { description: 'Per delivery country and VAT rate (destination VAT); Σ gross = gross' },
  ),
  discounts: Money('Coupon discounts'),
  shipping: Money('Shipping (overweight included)'),
  delivery: Money('Cash-on-delivery fees'),
  giftPackaging: Money('Gift packaging'),
  pointsCash: Money('Paid with loyalty points'),
  returns: Type.Integer({ description: 'Returns taken back in the bucket' }),
  refunds: Money('Refunded for returns in the bucket'),
});

export const SalesReportJson = Type.Object({
  from: Type.String(),
  to: Type.String(),
  interval: Type.String(),
  timezone: Type.String(),
  currency: Type.String(),
  buckets: Type.Array(SalesBucketJson),
});

export const TopProductJson = Type.Object({
  productId: Type.Integer(),
  sku: Type.String(),
  name: Type.String(),
  units: Type.Integer(),
  gross: Money('Σ line totals before order-level reductions'),
  returnedUnits: Type.Integer(),
});

export const CouponUseJson = Type.Object({
  couponId: Type.Union([Type.Integer(), Type.Null()], { description: 'The coupon (checkout/coupon)' }),
  code: Type.Union([Type.String(), Type.Null()], {
    description: 'The code; null for a caller without the Admin role (codes are commercial data)',
  }),
  orders: Type.Integer(),
  discount: Money('Σ coupon discounts'),
  gross: Money('Σ totals of those orders'),
});

export const LoyaltyJson = Type.Object({
  from: Type.String(),
  to: Type.String(),
  earned: Type.Integer(),
  redeemed: Type.Integer({ description: 'Spent on orders' }),
  returned: Type.Integer({ description: 'Given back by cancellations and returns' }),
  adjusted: Type.Integer({ description: 'Net of admin adjustments' }),
  outstanding: Type.Integer({ description: 'Every customer’s balance now' }),
  outstandingCash: Money('What the outstanding points can pay at the current rate'),
});

export const CSV = 'text/csv; charset=utf-8';
