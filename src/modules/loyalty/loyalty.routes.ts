import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { access } from '../../http/access.ts';
import { Envelope, ok } from '../../http/envelope.ts';
import { errorResponse } from '../../http/openapi.ts';
import { Role } from '../auth/roles.ts';
import { adjustPoints } from './loyalty.service.ts';

const AdjustmentBody = Type.Object(
  {
    customerId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    delta: Type.Integer({
      minimum: -100_000_000,
      maximum: 100_000_000,
      not: { const: 0 },
      description: 'Points to add (negative to remove); not 0',
    }),
    note: Type.String({ minLength: 1, maxLength: 500 }),
  },
  { additionalProperties: false },
);

const AdjustmentJson = Type.Object({
  customerId: Type.Integer(),
  balance: Type.Integer({ description: 'The balance after the adjustment' }),
  entry: Type.Object({
    id: Type.Integer(),
    delta: Type.Integer(),
    reason: Type.String(),
    note: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
  }),
});

export const loyaltyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/rest/loyalty/adjustment',
    {
      schema: {
        tags: ['loyalty'],
        summary: "Adjust a customer's points (written to the ledger; never below 0)",
        body: AdjustmentBody,
        response: { 200: Envelope(AdjustmentJson), 404: errorResponse(404), 422: errorResponse(422) },
      },
      config: { access: access.admin(Role.Admin) },
    },
    async (request) => {
      const actor = request.caller.kind === 'admin' ? request.caller.sub : 'unknown';
      return ok(await adjustPoints(app.db, actor, request.body));
    },
  );
};
