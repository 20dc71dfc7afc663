import { fromCents } from '../../lib/money.ts';
import { figuresJson, type TotalsFigures } from '../pricing/totals-json.ts';
import type { AfterOrder } from './after-order.repo.ts';
import type { OrderJsonType } from './order.schemas.ts';
import type { SalesOrderLineRow, SalesOrderRow } from './order.tables.ts';

// Orders are stored in cents (columns and jsonb snapshots alike); this is their HTTP edge.

const NOTHING_AFTER: AfterOrder = { history: [], shipments: [], returns: [] };

/**
 * Who made a move, as the reader may see it: the back office sees the admin's subject, a customer
 * or a guest sees `shop` for any admin (their own moves read `customer` / `guest`).
 */
function byOf(actor: string, backend: boolean): string {
  if (actor.startsWith('admin:')) return backend ? actor.slice('admin:'.length) : 'shop';
  return actor.startsWith('customer:') && !backend ? 'customer' : actor;
}

function lineJson(l: SalesOrderLineRow): OrderJsonType['lines'][number] {
  return {
    id: l.id,
    productId: l.productId,
    variantId: l.variantId ?? l.productId,
    sku: l.sku,
    options: l.options ?? {},
    name: l.name,
    unitPrice: fromCents(l.unitPrice),
    qty: l.qty,
    vatRate: l.vatRate,
    lineTotal: fromCents(l.lineTotal),
    giftId: l.giftId,
  };
}

/** Place-order writes no history row: the order itself is the move into `pending`. */
function statusHistoryJson(
  row: SalesOrderRow,
  after: AfterOrder,
  backend: boolean,
): OrderJsonType['statusHistory'] {
  const placedBy = row.customerId === null ? 'guest' : `customer:${row.customerId}`;
  return [
    { from: null, to: 'pending', at: row.createdAt.toISOString(), by: byOf(placedBy, backend), reason: null },
    ...after.history.map((h) => ({ ...h, by: byOf(h.by, backend) })),
  ];
}

export function orderJson(
  row: SalesOrderRow,
  lines: readonly SalesOrderLineRow[],
  after: AfterOrder = NOTHING_AFTER,
  backend = false,
): OrderJsonType {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    paymentStatus: row.paymentStatus,
    paid: fromCents(row.paidAmount),
    refunded: fromCents(row.refundedAmount),
    paidAt: row.paidAt ? row.paidAt.toISOString() : null,
    customerId: row.customerId,
    email: row.email,
    currency: row.currency,
    total: fromCents(row.total),
    totals: figuresJson(row.totals as TotalsFigures),
    lines: lines.map(lineJson),
    address: row.address,
    vatBreakdown: row.vatBreakdown.map((v) => ({
      rate: v.rate,
      net: fromCents(v.net),
      vat: fromCents(v.vat),
      gross: fromCents(v.gross),
      ...(v.reverseCharge ? { reverseCharge: true } : {}),
    })),
    couponCode: row.couponCode,
    pointsSpent: row.pointsSpent,
    transport: row.transportId === null ? null : { id: row.transportId, name: row.transportName ?? '' },
    payWay: row.payWay ?? null,
    giftPackaging: row.giftPackaging,
    vatId: row.vatId ?? null,
    shippingZone: row.shippingRate ?? null,
    statusHistory: statusHistoryJson(row, after, backend),
    shipments: after.shipments,
    returns: after.returns.map((r) => ({
      ...r,
      amount: fromCents(r.amount),
      lines: r.lines.map((l) => ({ ...l, amount: fromCents(l.amount) })),
    })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
