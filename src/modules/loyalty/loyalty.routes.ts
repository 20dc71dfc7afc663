import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.ts';
import { Envelope, ListEnvelope, ok } from '../../http/envelope.ts';
import { neverStored } from '../../http/no-store.ts';
import { errorResponse } from '../../http/openapi.ts';
import { limitAsSent } from '../../resources/index.ts';
import { Role } from '../../http/roles.ts';
import { AdjustmentBody, AdjustmentJson, LedgerEntryJson, LedgerQuery } from './loyalty.schemas.ts';
import { adjustPoints, listLedger } from './loyalty.service.ts';

export const loyaltyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['loyalty'];
  app.addHook('onSend', neverStored);

  app.post(
    '/rest/loyalty/adjustment',
    {
      schema: {
        tags,
        operationId: 'adjustLoyaltyPoints',
        summary: "Adjust a customer's points (written to the ledger with the admin; never below 0)",
        body: AdjustmentBody,
        response: { 200: Envelope(AdjustmentJson), 404: errorResponse(404), 422: errorResponse(422) },
      },
      config: { access: access.admin(Role.Admin, Role.Marketing), audit: { entity: 'customer' } },
    },
    async (request) => ok(await adjustPoints(app.db, request.caller, request.body)),
  );

  app.get(
    '/rest/loyalty/ledger',
    {
      schema: {
        tags,
        operationId: 'listLoyaltyLedger',
        summary: "Points ledger, newest first (a customer's own; any customer's for the back office)",
        querystring: LedgerQuery,
        response: { 200: ListEnvelope(LedgerEntryJson), 404: errorResponse(404) },
      },
      config: { access: access.customerOrAdmin(Role.Admin, Role.Marketing) },
      preValidation: limitAsSent,
    },
    async (request) => listLedger({ db: app.db, config: app.config }, request.caller, request.query),
  );
};
