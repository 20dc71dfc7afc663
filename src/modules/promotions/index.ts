import type { FastifyPluginAsync } from 'fastify';
import { registerResource } from '../../resources/index.ts';
import { couponResource, giftResource } from './promotions.resources.ts';

/** Coupons and gift rules (`/rest/checkout/coupon`, `/rest/checkout/gift`). */
export const promotionsModule: FastifyPluginAsync = async (app) => {
  for (const resource of [couponResource, giftResource]) registerResource(app, resource);
};
