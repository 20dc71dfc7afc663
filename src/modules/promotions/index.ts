import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.ts';
import { registerResource } from '../../resources/index.ts';
import { nextSaleChangeJson } from '../catalog/sale-price.ts';
import { couponResource, giftResource } from './promotions.resources.ts';
import { promotionResource } from './promotion.resource.ts';

/** Coupons, gift rules and promotions (`/rest/checkout/coupon`, `/gift`, `/promotion`). */
export const promotionsModule: FastifyPluginAsync = async (app) => {
  for (const resource of [couponResource, giftResource, promotionResource]) registerResource(app, resource);
  // A catalog sale lowers the prices that product and variant answers show from its start to its
  // end, with no write at those moments: kept answers last until the next such moment.
  app.responseCache?.timeBounds.add({
    table: 'promotion',
    affects: ['product', 'product_variant'],
    nextChange: async () => {
      const [row] = await queryRows<{ at: string | null }>(app.db, sql`select ${nextSaleChangeJson} as at`);
      return row?.at ? Date.parse(row.at) : null;
    },
  });
};
