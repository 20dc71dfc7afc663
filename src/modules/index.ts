import type { FastifyPluginAsync } from 'fastify';
import { healthRoutes } from './health/health.routes.ts';

/** Every feature module's plugin, registered by buildApp in this order. */
export const modules: FastifyPluginAsync[] = [healthRoutes];
