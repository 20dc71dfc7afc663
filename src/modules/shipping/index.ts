import type { FastifyPluginAsync } from 'fastify';
import { registerResource } from '../../resources/index.ts';
import { transportResource } from './shipping.resource.ts';
import { shippingRateResource, shippingZoneResource, taxRateResource } from './zones.resource.ts';

/** Shipping methods, zones, their rates and the VAT rates per country (`/rest/checkout/…`). */
export const shippingModule: FastifyPluginAsync = async (app) => {
  registerResource(app, transportResource);
  registerResource(app, shippingZoneResource);
  registerResource(app, shippingRateResource);
  registerResource(app, taxRateResource);
};
