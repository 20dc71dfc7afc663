import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { access } from '../../http/access.ts';
import { Envelope, ok } from '../../http/envelope.ts';
import { neverStored } from '../../http/no-store.ts';
import { hasAnyRole, Role } from '../../http/roles.ts';
import { exportOrdersCsv } from './order-export.ts';
import { PromotionUseJson, promotionsCsv, promotionsReport } from './promotions-report.ts';
import { OrderFilterQuery as ExportQuery } from '../orders/order.schemas.ts';
import {
  CouponUseJson,
  CSV,
  LoyaltyJson,
  PeriodQuery,
  SalesQuery,
  SalesReportJson,
  TopProductJson,
  TopProductsQuery,
} from './reports.schemas.ts';
import {
  type ReportDeps,
  couponsCsv,
  couponsReport,
  loyaltyCsv,
  loyaltyReport,
  sales,
  salesCsv,
  topProductsCsv,
  topProductsReport,
} from './reports.service.ts';

// Reports for the Admin and Reporting roles (docs/orders.md, "Reports"): JSON by default, CSV when
// the request's Accept header asks for text/csv.

const wantsCsv = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/csv');

/** The 200 answer in both media types, so the OpenAPI document shows the CSV too. */
function jsonOrCsv(schema: TSchema) {
  return {
    200: {
      description: 'JSON, or CSV with Accept: text/csv',
      content: {
        'application/json': { schema: Envelope(schema) },
        'text/csv': { schema: Type.String({ description: 'RFC 4180, a header line first' }) },
      },
    },
  };
}

function sendCsv(reply: FastifyReply, name: string, text: string) {
  return reply.type(CSV).header('content-disposition', `attachment; filename="${name}.csv"`).send(text);
}

type TypedApp = Parameters<FastifyPluginAsyncTypebox>[0];

const tags = ['report'];
const readers = { access: access.admin(Role.Admin, Role.Reporting) };

export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db, config: app.config };
  app.addHook('onSend', neverStored);
  salesRoutes(app, deps);
  promotionRoutes(app, deps);
  orderExportRoute(app);
};

/** Sales per period and the products sold. */
function salesRoutes(app: TypedApp, deps: ReportDeps): void {
  app.get(
    '/rest/report/sales',
    {
      schema: {
        tags,
        operationId: 'getSalesReport',
        summary:
          'Sales per day, week or month: gross, net, VAT per rate, discounts, shipping, points, refunds',
        querystring: SalesQuery,
        response: jsonOrCsv(SalesReportJson),
      },
      config: readers,
    },
    async (request, reply) => {
      const report = await sales(deps, request.query);
      return wantsCsv(request) ? sendCsv(reply, 'sales', salesCsv(report)) : ok(report);
    },
  );

  app.get(
    '/rest/report/top-products',
    {
      schema: {
        tags,
        operationId: 'getTopProductsReport',
        summary: 'Products by units sold in the period',
        querystring: TopProductsQuery,
        response: jsonOrCsv(Type.Array(TopProductJson)),
      },
      config: readers,
    },
    async (request, reply) => {
      const rows = await topProductsReport(deps, request.query);
      return wantsCsv(request) ? sendCsv(reply, 'top-products', topProductsCsv(rows)) : ok(rows);
    },
  );
}

/** Coupon use, cart promotions and loyalty points. */
function promotionRoutes(app: TypedApp, deps: ReportDeps): void {
  app.get(
    '/rest/report/coupons',
    {
      schema: {
        tags,
        operationId: 'getCouponsReport',
        summary:
          'Coupon use in the period: orders, discount, their totals (codes for Admin; Reporting reads coupon ids)',
        querystring: PeriodQuery,
        response: jsonOrCsv(Type.Array(CouponUseJson)),
      },
      config: readers,
    },
    async (request, reply) => {
      const withCodes = request.caller.kind === 'admin' && hasAnyRole(request.caller.roles, [Role.Admin]);
      const rows = await couponsReport(deps, request.query, withCodes);
      return wantsCsv(request) ? sendCsv(reply, 'coupons', couponsCsv(rows, withCodes)) : ok(rows);
    },
  );

  app.get(
    '/rest/report/promotions',
    {
      schema: {
        tags,
        operationId: 'getPromotionsReport',
        summary: 'Cart promotions in the period: orders, the discount each gave, their totals',
        querystring: PeriodQuery,
        response: jsonOrCsv(Type.Array(PromotionUseJson)),
      },
      config: { access: access.admin(Role.Admin, Role.Reporting, Role.Marketing) },
    },
    async (request, reply) => {
      const rows = await promotionsReport(deps, request.query);
      return wantsCsv(request) ? sendCsv(reply, 'promotions', promotionsCsv(rows)) : ok(rows);
    },
  );

  app.get(
    '/rest/report/loyalty',
    {
      schema: {
        tags,
        operationId: 'getLoyaltyReport',
        summary: 'Loyalty points earned, spent, returned and adjusted in the period; the balance outstanding',
        querystring: PeriodQuery,
        response: jsonOrCsv(LoyaltyJson),
      },
      config: readers,
    },
    async (request, reply) => {
      const report = await loyaltyReport(deps, request.query);
      return wantsCsv(request) ? sendCsv(reply, 'loyalty', loyaltyCsv(report)) : ok(report);
    },
  );
}

function orderExportRoute(app: TypedApp): void {
  app.get(
    '/rest/report/orders',
    {
      schema: {
        tags,
        operationId: 'exportOrders',
        summary: 'Export orders as CSV with the order list’s filters (streamed)',
        querystring: ExportQuery,
        response: {
          200: {
            description: 'RFC 4180 CSV, one line per order, newest first',
            // Sent as a stream that Fastify pipes; documented as the text it becomes.
            content: { 'text/csv': { schema: Type.Unsafe<Readable>(Type.String()) } },
          },
        },
      },
      config: { access: access.admin(Role.Admin, Role.Orders, Role.Reporting) },
    },
    async (request, reply) => {
      const withEmail = request.caller.kind === 'admin' && mayReadPersonalData(request.caller.roles);
      return reply
        .type(CSV)
        .header('content-disposition', 'attachment; filename="orders.csv"')
        .send(exportOrdersCsv(app.db, request.query, withEmail));
    },
  );
}

/** The order list's readers (Admin, Orders; Superuser) see e-mail addresses; Reporting reads figures. */
function mayReadPersonalData(roles: readonly number[]): boolean {
  return [Role.Superuser, Role.Admin, Role.Orders].some((r) => roles.includes(r));
}
