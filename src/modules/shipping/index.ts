import type { FastifyPluginAsync } from 'fastify';
import { registerResource } from '../../resources/index.ts';
import { transportResource } from './shipping.resource.ts';

/** Shipping methods (`/rest/checkout/transport`). */
export const shippingModule: FastifyPluginAsync = async (app) => {
  registerResource(app, transportResource);
};
