import type { FastifyPluginAsync } from 'fastify';
import { adminUserRoutes } from './auth/admin-users.routes.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { cartRoutes } from './cart/cart.routes.ts';
import { catalogModule } from './catalog/index.ts';
import { checkoutRoutes } from './checkout/checkout.routes.ts';
import { cmsModule } from './cms/index.ts';
import { customersModule } from './customers/index.ts';
import { healthRoutes } from './health/health.routes.ts';
import { loyaltyRoutes } from './loyalty/loyalty.routes.ts';
import { orderRoutes } from './orders/order.routes.ts';
import { settingsModule } from './settings/index.ts';

/** Every feature module's plugin, registered by buildApp in this order. */
export const modules: FastifyPluginAsync[] = [
  healthRoutes,
  authRoutes,
  adminUserRoutes,
  settingsModule,
  catalogModule,
  cmsModule,
  customersModule,
  cartRoutes,
  checkoutRoutes,
  orderRoutes,
  loyaltyRoutes,
];
