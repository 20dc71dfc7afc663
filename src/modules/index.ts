import type { FastifyPluginAsync } from 'fastify';
import { adminUserRoutes } from './auth/admin-users.routes.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { healthRoutes } from './health/health.routes.ts';

/** Every feature module's plugin, registered by buildApp in this order. */
export const modules: FastifyPluginAsync[] = [healthRoutes, authRoutes, adminUserRoutes];
