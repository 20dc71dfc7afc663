import { fromCents } from '../../lib/money.ts';
import type { VatBreakdownEntry } from '../checkout/totals.ts';
import { figuresJson, type TotalsFigures } from '../checkout/totals-json.ts';
import type { AddressJsonType, OrderJsonType } from './order.schemas.ts';
import type { SalesOrderLineRow, SalesOrderRow } from './order.tables.ts';

// Orders are stored in cents (columns and jsonb snapshots alike); this is their HTTP edge.

export function orderJson(row: SalesOrderRow, lines: readonly SalesOrderLineRow[]): OrderJsonType {
  const vat = row.vatBreakdown as VatBreakdownEntry[];
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    customerId: row.customerId,
    email: row.email,
    currency: row.currency,
    total: fromCents(row.total),
    totals: figuresJson(row.totals as TotalsFigures),
    lines: lines.map((l) => ({
      productId: l.productId,
      sku: l.sku,
      name: l.name,
      unitPrice: fromCents(l.unitPrice),
      qty: l.qty,
      vatRate: l.vatRate,
      lineTotal: fromCents(l.lineTotal),
      giftId: l.giftId,
    })),
    address: row.address as AddressJsonType,
    vatBreakdown: vat.map((v) => ({
      rate: v.rate,
      net: fromCents(v.net),
      vat: fromCents(v.vat),
      gross: fromCents(v.gross),
    })),
    couponCode: row.couponCode,
    pointsSpent: row.pointsSpent,
    transport: row.transportId === null ? null : { id: row.transportId, name: row.transportName ?? '' },
    payWay: (row.payWay as OrderJsonType['payWay']) ?? null,
    giftPackaging: row.giftPackaging,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
