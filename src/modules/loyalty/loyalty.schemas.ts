import { type Static, Type } from '@sinclair/typebox';
import { PageQuery, Id } from '../../resources/index.ts';
import { LEDGER_REASONS } from './loyalty.tables.ts';

const Reason = Type.String({ minLength: 1, maxLength: 500 });

export const AdjustmentBody = Type.Object(
  {
    customerId: Id,
    delta: Type.Integer({
      minimum: -100_000_000,
      maximum: 100_000_000,
      not: { const: 0 },
      description: 'Points to add (negative to remove); not 0',
    }),
    reason: Type.Optional({
      ...Reason,
      description: 'Why; kept as the ledger row’s note. Required (or note)',
    }),
    note: Type.Optional({ ...Reason, description: 'Alias of reason' }),
  },
  { additionalProperties: false },
);
export type AdjustmentBodyType = Static<typeof AdjustmentBody>;

export const LedgerEntryJson = Type.Object({
  id: Type.Integer(),
  customerId: Type.Integer(),
  delta: Type.Integer({ description: 'Points added (negative: taken)' }),
  reason: Type.Union(
    LEDGER_REASONS.map((r) => Type.Literal(r)),
    { description: 'What moved the balance' },
  ),
  orderId: Type.Union([Type.Integer(), Type.Null()]),
  note: Type.Union([Type.String(), Type.Null()]),
  actor: Type.Union([Type.String(), Type.Null()], {
    description: 'The admin who made the change (token subject); null for orders and for customer tokens',
  }),
  createdAt: Type.String({ format: 'date-time' }),
});
export type LedgerEntryJsonType = Static<typeof LedgerEntryJson>;

export const AdjustmentJson = Type.Object({
  customerId: Type.Integer(),
  balance: Type.Integer({ description: 'The balance after the adjustment' }),
  entry: LedgerEntryJson,
});

export const LedgerQuery = Type.Object({
  ...PageQuery,
  customerId: Type.Optional({
    ...Id,
    description:
      'Back office: one customer’s rows (all customers when omitted). A customer token reads its own; another id is 404',
  }),
});
export type LedgerQueryType = Static<typeof LedgerQuery>;
